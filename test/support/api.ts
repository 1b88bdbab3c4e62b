import { request as httpRequest } from 'node:http';
import { randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { newAccountWrites, nextUserId } from '#lib/auth/create-account.ts';
import { hashPassword } from '#lib/auth/passwords.ts';
import { transactWrite } from '#lib/db/transact.ts';
import { awsRegion, searchTableOf } from '#lib/config.ts';
import { DeleteTableCommand } from '@aws-sdk/client-dynamodb';
import { dynamodb, resetDb } from '#lib/db/client.ts';
import { isoTimestamp, moveClock, nowMs, resetClock } from '#lib/time.ts';
import { ensureTable } from '../../scripts/local/ensure-table.ts';
import { startServer, type FunctionAnswered, type RunningServer, type ServerOptions } from '../../scripts/local/server.ts';
import { startStreamPollers, type StreamPollers } from '../../scripts/local/stream-poller.ts';
import { responseValidator } from './openapi.ts';

// Each test file gets its own table in the shared DynamoDB Local and its own local gateway
// (the code path `npm start` uses), and talks to it over HTTP. With API_TARGET=bundles
// (the `bundles` project) the gateway serves the bundles of cdk.out under their roles, as
// `npm start -- --bundles` does, on LAMBDA_NODE when it is set; as in `npm start`, the stream
// poller feeds the table's stream to its consumer (docs/streams.md). Every response an ApiClient
// receives is checked against the OpenAPI document (test/support/openapi.ts): a response the
// document does not describe fails the test that got it.

export interface TestApi {
  url: string;
  table: string;
  server: RunningServer;
  /** The stream poller feeding the table's stream consumer (none with `streams: false`). */
  streams?: StreamPollers;
  client(token?: string): ApiClient;
  /** The clock the handlers read (lib/time.ts), moved instead of sleeping; reset when the API closes. */
  clock: TestClock;
  /** Creates an account (as the admin CLI does) and logs it in over HTTP. */
  user(prefix?: string, password?: string): Promise<TestUser>;
  close(): Promise<void>;
}

/**
 * Moves the clock of this process (lib/time.ts), which the handlers from source read: a token's
 * expiry or the next whole second is reached at once. The bundles run in processes of their own
 * on the system's clock, which no test moves: there `advance` throws (skip such a test with BUNDLES).
 */
export interface TestClock {
  /** Moves the clock `ms` milliseconds forward. */
  advance(ms: number): void;
  /** Moves the clock forward to just past the next whole second (what a date in whole seconds tells apart). */
  nextSecond(): void;
  /**
   * Runs `make` in this process with the clock `ms` milliseconds back, then puts it back: an item
   * made as it would have been `ms` ago (a token issued then), for the sources and the bundles alike.
   */
  ago<T>(ms: number, make: () => T): T;
  /** The system's clock again. */
  reset(): void;
}

/** The clock of the sources' run (TestApi.clock): refused with the bundles, whose clocks are their own. */
export const testClock: TestClock = {
  advance(ms) {
    if (BUNDLES) throw new Error('The bundles run on their own clocks, which a test does not move: skip this test with BUNDLES.');
    if (!(ms > 0)) throw new Error(`clock.advance(${ms}): a test moves the clock forward`);
    moveClock(ms);
  },
  nextSecond() {
    testClock.advance(1000 - (nowMs() % 1000) + 20);
  },
  ago(ms, make) {
    if (!(ms > 0)) throw new Error(`clock.ago(${ms}): a time in the past`);
    moveClock(-ms);
    try {
      return make();
    } finally {
      moveClock(ms);
    }
  },
  reset: () => resetClock(),
};

export interface TestUser {
  username: string;
  password: string;
  id: number;
  token: string;
  api: ApiClient;
}

export interface ApiResponse<T = unknown> {
  status: number;
  headers: Headers;
  /** Parsed JSON body, or null when there is none. */
  body: T;
  text: string;
}

export interface RequestOptions {
  json?: unknown;
  form?: Record<string, string>;
  /** A raw body, sent with the given content type header (if any). */
  raw?: string | Buffer;
  headers?: Record<string, string>;
  query?: Record<string, string>;
}

export class ApiClient {
  constructor(
    readonly baseUrl: string,
    readonly token?: string,
  ) {}

  withToken(token: string | undefined): ApiClient {
    return new ApiClient(this.baseUrl, token);
  }

  async request<T = any>(method: string, path: string, options: RequestOptions = {}): Promise<ApiResponse<T>> {
    const headers: Record<string, string> = { Accept: 'application/json', ...options.headers };
    if (this.token && !Object.keys(headers).some((h) => h.toLowerCase() === 'authorization')) {
      headers.Authorization = `Token ${this.token}`;
    }
    let body: string | Buffer | undefined;
    if (options.json !== undefined) {
      body = JSON.stringify(options.json);
      headers['Content-Type'] ??= 'application/json';
    } else if (options.form) {
      body = new URLSearchParams(options.form).toString();
      headers['Content-Type'] ??= 'application/x-www-form-urlencoded';
    } else if (options.raw !== undefined) {
      body = options.raw;
    }
    const query = options.query ? `?${new URLSearchParams(options.query).toString()}` : '';
    const url = path.startsWith('http') ? path : `${this.baseUrl}${path}${query}`;
    const response = await fetch(url, { method, headers, ...(body !== undefined ? { body } : {}) });
    const text = await response.text();
    responseValidator().check({ method, url, status: response.status, headers: response.headers, text });
    let parsed: unknown = null;
    if (text) {
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = null;
      }
    }
    return { status: response.status, headers: response.headers, body: parsed as T, text };
  }

  get<T = any>(path: string, options?: RequestOptions) {
    return this.request<T>('GET', path, options);
  }
  post<T = any>(path: string, options?: RequestOptions) {
    return this.request<T>('POST', path, options);
  }
  put<T = any>(path: string, options?: RequestOptions) {
    return this.request<T>('PUT', path, options);
  }
  delete<T = any>(path: string, options?: RequestOptions) {
    return this.request<T>('DELETE', path, options);
  }
}

/** A GET with a body (fetch refuses a body on GET, so node:http sends it). */
export function getWithBody(client: ApiClient, path: string, body: string, contentType: string) {
  return new Promise<{ status: number; link: string | undefined; body: any }>((done, fail) => {
    const url = new URL(`${client.baseUrl}${path}`);
    const request = httpRequest(
      url,
      {
        method: 'GET',
        // A connection of its own (raw-http.ts says why).
        agent: false,
        headers: {
          Accept: 'application/json',
          Authorization: `Token ${client.token}`,
          'Content-Type': contentType,
          'Content-Length': Buffer.byteLength(body),
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          const link = response.headers.link;
          done({ status: response.statusCode ?? 0, link: Array.isArray(link) ? link[0] : link, body: text ? JSON.parse(text) : null });
        });
        response.on('error', fail);
      },
    );
    request.on('error', fail);
    request.end(body);
  });
}

/** POST /posts with this form, which must answer 201; the created post. */
export async function createPost(client: ApiClient, form: Record<string, string>) {
  const response = await client.post('/posts', { form });
  expect(response.status, response.text).toBe(201);
  return response.body;
}

/** A name no other test uses. */
export function unique(prefix = 'user'): string {
  return `${prefix}${randomUUID().replace(/-/g, '').slice(0, 10)}`;
}

/**
 * Where the bundles' run records which routes its bundles answered, with which statuses (one file
 * per closed API; test/bundles/coverage.test.ts reads them all once every other suite is done).
 */
export const BUNDLE_COVERAGE_DIR = fileURLToPath(new URL('../../test-results/bundle-coverage/', import.meta.url));

/** The answers from bundles since the last record was written: `<route key> <status>` → how many. */
const bundleAnswers = new Map<string, number>();

function recordBundleAnswer({ routeKey, status }: FunctionAnswered): void {
  const key = `${routeKey} ${status}`;
  bundleAnswers.set(key, (bundleAnswers.get(key) ?? 0) + 1);
}

function writeBundleCoverage(): void {
  if (bundleAnswers.size === 0) return;
  mkdirSync(BUNDLE_COVERAGE_DIR, { recursive: true });
  // A record per closed API: a test process runs several files one after the other.
  const record = join(BUNDLE_COVERAGE_DIR, `${process.pid}-${randomUUID().slice(0, 8)}.json`);
  writeFileSync(record, JSON.stringify({ file: expect.getState().testPath, answers: Object.fromEntries(bundleAnswers) }));
  bundleAnswers.clear();
}

/** Whether this file's project serves the bundles from cdk.out (`bundles`: npm run test:bundles, or npm test with WITH_BUNDLES=1). */
export const BUNDLES = process.env.API_TARGET === 'bundles';

/** The target of this run: the sources, or the bundles of cdk.out on LAMBDA_NODE. */
export function targetOptions(): Pick<ServerOptions, 'target' | 'cdkOut' | 'node'> {
  if (!BUNDLES) return { target: 'source' };
  return { target: 'bundles', cdkOut: process.env.CDK_OUT ?? 'cdk.out', ...(process.env.LAMBDA_NODE ? { node: process.env.LAMBDA_NODE } : {}) };
}

/**
 * How many accounts a test process makes at once (TestApi.user): each costs a bcrypt run at the
 * service's cost, the login's check in the handler, in this one process (the sources run in it),
 * and the first account of each password its hash as well. Fifteen at once (a suite's users, made together) kept the event loop busy for
 * seconds, long enough for a DynamoDB answer already received to be read after its 2 s request
 * timeout had fired. Deployed, each login runs in an instance of its own; the accounts a suite
 * needs are its setup, not what it tests.
 */
const ACCOUNTS_AT_ONCE = 2;

/**
 * One bcrypt hash per password in this process: the test accounts that share a password share
 * its hash (and salt), which nothing outside the table sees. The login that follows checks it in
 * the handler as always; the hash at the service's cost was a second bcrypt run per account,
 * 130 ms of CPU each, several hundred times per CI run.
 */
const passwordHashes = new Map<string, Promise<string>>();

/** A test account, written as the administrator's account creation writes it (lib/auth/create-account.ts). */
async function createTestUser(username: string, password: string): Promise<{ id: number }> {
  let hash = passwordHashes.get(password);
  if (!hash) passwordHashes.set(password, (hash = hashPassword(password)));
  const user = { id: await nextUserId(), username };
  await transactWrite(newAccountWrites(user, await hash, isoTimestamp(), { onTaken: () => new Error(`The test username ${username} is taken.`) }));
  return user;
}
let accountsInFlight = 0;
const waitingForAccount: (() => void)[] = [];

async function accountMaking<T>(make: () => Promise<T>): Promise<T> {
  if (accountsInFlight >= ACCOUNTS_AT_ONCE) await new Promise<void>((go) => waitingForAccount.push(go));
  accountsInFlight += 1;
  try {
    return await make();
  } finally {
    accountsInFlight -= 1;
    waitingForAccount.shift()?.();
  }
}

export interface ApiOptions extends Partial<ServerOptions> {
  /** Run the stream poller (default true): the table's stream consumer reacts as deployed. */
  streams?: boolean;
}

export async function startApi({ streams = true, ...options }: ApiOptions = {}): Promise<TestApi> {
  const table = `test-${randomUUID().slice(0, 8)}`;
  // Handlers run from source read TABLE_NAME when called: closing this API gives the process back
  // the table of the API started before it.
  const previousTable = process.env.TABLE_NAME;
  process.env.TABLE_NAME = table;
  resetDb();
  await ensureTable(table);
  const server: RunningServer = await startServer({ port: 0, ...targetOptions(), ...(BUNDLES ? { onFunctionAnswer: recordBundleAnswer } : {}), ...options });
  let pollers: StreamPollers | undefined;
  try {
    if (streams) pollers = await startStreamPollers({ server, tableName: table, region: awsRegion() });
  } catch (error) {
    await server.close();
    throw error;
  }
  const client = (token?: string) => new ApiClient(server.url, token);
  return {
    url: server.url,
    table,
    server,
    ...(pollers ? { streams: pollers } : {}),
    client,
    clock: testClock,
    user: (prefix = 'user', password = 'correct horse battery') =>
      accountMaking(async () => {
        const username = unique(prefix);
        const { id } = await createTestUser(username, password);
        const response = await client().post('/login', { json: { username, password } });
        if (response.status !== 200) throw new Error(`login failed: ${response.status} ${response.text}`);
        const token = (response.body as { token: string }).token;
        return { username, password, id, token, api: client(token) };
      }),
    close: async () => {
      testClock.reset();
      await pollers?.stop();
      await server.close();
      if (BUNDLES) writeBundleCoverage();
      // The run shares one DynamoDB Local: a finished suite's table (and its stream) would slow
      // every later suite's writes.
      for (const name of [table, searchTableOf(table)]) {
        await dynamodb()
          .send(new DeleteTableCommand({ TableName: name }))
          .catch(() => undefined);
      }
      if (previousTable !== undefined) process.env.TABLE_NAME = previousTable;
    },
  };
}
