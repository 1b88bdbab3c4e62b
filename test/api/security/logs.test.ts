import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { db } from '#lib/db/client.ts';
import { keys } from '#lib/db/keys.ts';
import { startApi, unique, type TestApi, type TestUser } from '../../support/api.ts';
import { installFaults, type FaultInjector } from '../../support/faults.ts';
import { rawRequest } from '../reliability/raw-http.ts';

// Logs (OWASP API8/API2): at LOG_LEVEL=debug, with real secrets in flight (passwords in login
// bodies, tokens in Authorization headers, a malformed body holding a password) and the code
// paths that log the most (a DynamoDB retry at debug, a 503 at warn, an unexpected error with its
// stack at error), everything the process prints is captured — console methods and the raw
// stdout/stderr streams, so lines written to the streams by consoles of their own (the Powertools
// Logger of lib/log.ts, the Powertools Metrics of the request log, here as in Lambda) are caught
// too. No line may hold a password, a password hash, a token or an Authorization header, and every
// line must be a JSON object.

vi.hoisted(() => {
  // Before any module is loaded, so that loggers built at import take the level too; as in
  // Lambda, so that the metrics are written too.
  process.env.LOG_LEVEL = 'debug';
  process.env.AWS_LAMBDA_FUNCTION_NAME = 'CommunityPosts-Logs';
  process.env.AWS_LAMBDA_INITIALIZATION_TYPE = 'on-demand';
  // Powertools' switch to log every event (headers and bodies): the endpoint never does.
  process.env.POWERTOOLS_LOGGER_LOG_EVENT = 'true';
});

let api: TestApi;
let origin: string;
let alice: TestUser;
let faults: FaultInjector;
const PASSWORD = `Pw-${unique('secret')}-ünïcode`;

beforeAll(async () => {
  api = await startApi();
  origin = new URL(api.url).origin;
  alice = await api.user('lg_alice', PASSWORD);
  faults = await installFaults(db());
});
afterAll(async () => {
  await faults?.remove();
  await api?.close();
});

interface Captured {
  lines: string[];
  restore(): void;
}

function capture(): Captured {
  const chunks: string[] = [];
  const text = (args: unknown[]) =>
    args.map((a) => (typeof a === 'string' ? a : a instanceof Error ? `${a.name}: ${a.message}\n${a.stack}` : JSON.stringify(a))).join(' ');
  const spies = [
    ...(['log', 'info', 'warn', 'error', 'debug', 'trace'] as const).map((method) =>
      vi.spyOn(console, method).mockImplementation((...args: unknown[]) => void chunks.push(text(args))),
    ),
    ...[process.stdout, process.stderr].map((stream) =>
      vi.spyOn(stream, 'write').mockImplementation(((chunk: string | Uint8Array) => {
        chunks.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
        return true;
      }) as typeof stream.write),
    ),
  ];
  return {
    get lines() {
      return chunks
        .join('\n')
        .split('\n')
        .map((line) => line.trim())
        .filter(Boolean);
    },
    restore: () => spies.forEach((spy) => spy.mockRestore()),
  };
}

describe('logs', () => {
  it('never hold a password, a token or an Authorization header, and are JSON lines', async () => {
    const secrets: string[] = [PASSWORD, alice.token];
    const output = capture();
    try {
      // Logins: JSON and form, right and wrong, and a malformed body that holds the password.
      const logins = await Promise.all([
        api.client().post('/login', { json: { username: alice.username, password: PASSWORD } }),
        api.client().post('/login', { form: { username: alice.username, password: PASSWORD } }),
        api.client().post('/login', { json: { username: alice.username, password: `${PASSWORD}-wrong` } }),
        api.client().post('/login', { json: { username: unique('nobody'), password: PASSWORD } }),
      ]);
      secrets.push(`${PASSWORD}-wrong`);
      for (const response of logins.slice(0, 2)) secrets.push(response.body.token);
      const malformed = await rawRequest(origin, {
        method: 'POST',
        path: '/api/v1/login',
        body: `{"username": "${alice.username}", "password": "${PASSWORD}"`,
        headers: { 'Content-Type': 'application/json' },
      });
      expect(malformed.status).toBe(400);

      // Authenticated traffic, including a body that quotes the token.
      const token = logins[0]!.body.token as string;
      const client = api.client(token);
      await client.get('/auth');
      await client.post('/posts', { json: { title: `Logged ${alice.username}`, description: `mentions ${token}`, publish: true } });
      await client.put(`/users/detail/${alice.username}`, { form: { about_me: `my password is ${PASSWORD}` } });
      await client.get('/posts', { query: { q: token } });
      await api.client('f'.repeat(40)).get('/auth');
      await rawRequest(origin, { method: 'GET', path: '/api/v1/auth', headers: { Authorization: `Bearer ${token}` } });

      // The loudest paths: retries (debug), a spent budget (warn), an unexpected error (error).
      let n = 0;
      faults.setRule((call) => {
        if (call.plan === 'retry') return n++ % 2 === 0 ? 'ProvisionedThroughputExceededException' : undefined;
        if (call.plan === 'busy') return 'ThrottlingException';
        if (call.plan === 'bug') return 'ValidationException';
        return undefined;
      });
      const previousBudget = process.env.RETRY_BUDGET_MS;
      process.env.RETRY_BUDGET_MS = '300';
      try {
        for (const plan of ['retry', 'busy', 'bug']) {
          const headers = { Authorization: `Token ${token}`, 'Content-Type': 'application/json', 'X-Fault-Plan': plan };
          await rawRequest(origin, { method: 'POST', path: '/api/v1/login', body: JSON.stringify({ username: alice.username, password: PASSWORD }), headers });
          await rawRequest(origin, { method: 'PUT', path: `/api/v1/users/detail/${alice.username}`, body: JSON.stringify({ location: PASSWORD }), headers });
          await rawRequest(origin, { method: 'GET', path: '/api/v1/auth', headers });
        }
      } finally {
        faults.setRule(undefined);
        if (previousBudget === undefined) delete process.env.RETRY_BUDGET_MS;
        else process.env.RETRY_BUDGET_MS = previousBudget;
      }
      expect((await client.get('/logout')).status).toBe(200);
    } finally {
      output.restore();
    }

    const { Item } = await db().send(new GetCommand({ TableName: api.table, Key: keys.userCredentials(alice.username), ConsistentRead: true }));
    const hash = String(Item!.password);
    const lines = output.lines;
    // The run was loud enough to mean something.
    const parsed = lines
      .filter((line) => !line.startsWith('(node:') && !line.startsWith('(Use `node'))
      .map((line) => {
        try {
          return JSON.parse(line) as Record<string, unknown>;
        } catch {
          return line;
        }
      });
    const notJson = parsed.filter((entry) => typeof entry === 'string' || entry === null || Array.isArray(entry));
    expect(notJson, 'every log line is a JSON object').toEqual([]);
    const levels = parsed.map((entry) => String((entry as Record<string, unknown>).level ?? '').toLowerCase());
    expect(levels).toContain('error');
    expect(levels).toContain('warn');
    expect(levels).toContain('debug');
    const metrics = parsed.filter((entry) => typeof entry === 'object' && entry !== null && '_aws' in entry) as Record<string, unknown>[];
    expect(metrics.some((entry) => 'Latency' in entry)).toBe(true);

    const all = lines.join('\n');
    for (const secret of secrets) {
      expect(all.includes(secret), `a secret of ${secret.length} characters appears in the logs`).toBe(false);
      expect(all.includes(JSON.stringify(secret).slice(1, -1)), 'a JSON-escaped secret appears in the logs').toBe(false);
    }
    expect(all).not.toContain(hash);
    expect(all).not.toMatch(/\$2[aby]\$\d\d\$/);
    expect(all).not.toMatch(/"?authorization"?\s*[:=]\s*"?(token|bearer)\s/i);
    expect(all).not.toMatch(/\b(token|bearer) [0-9a-f]{40}\b/i);
    console.info(
      `logs: ${lines.length} lines captured, levels ${JSON.stringify(levels.reduce<Record<string, number>>((acc, l) => ({ ...acc, [l || 'other']: (acc[l || 'other'] ?? 0) + 1 }), {}))}`,
    );
  }, 60_000);
});
