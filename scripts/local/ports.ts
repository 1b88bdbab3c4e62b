import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { createServer } from 'node:net';
import { localCredentials } from '#lib/config.ts';

// What holds a port `npm start` wants: nothing, a DynamoDB Local (whose data `npm start` must not
// silently serve as its own), this API (another `npm start`), or some other program.

export type PortHolder = { kind: 'free' } | { kind: 'dynamodb-local'; tables: string[] } | { kind: 'this-api' } | { kind: 'other' };

const PROBE_TIMEOUT_MS = 2000;

/** Whether this process could listen on 127.0.0.1:port (as DynamoDB Local and the API do). */
export function portFree(port: number): Promise<boolean> {
  return new Promise((done) => {
    const server = createServer();
    server.once('error', () => done(false));
    server.listen(port, '127.0.0.1', () => server.close(() => done(true)));
  });
}

/** The first free port after `port`, for the message that suggests one. */
export async function nextFreePort(port: number): Promise<number | undefined> {
  for (let candidate = port + 1; candidate <= Math.min(port + 100, 65535); candidate++) {
    if (await portFree(candidate)) return candidate;
  }
  return undefined;
}

interface ProbeAnswer {
  headers: IncomingHttpHeaders;
  body: string;
}

/**
 * One HTTP request to 127.0.0.1:port; undefined when no HTTP answer comes. Not fetch: Node.js 20's
 * fetch neither settles nor keeps the process alive when the other side closes at once.
 */
function probe(
  port: number,
  path: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<ProbeAnswer | undefined> {
  return new Promise((done) => {
    const request = httpRequest(
      { host: '127.0.0.1', port, path, method: options.method ?? 'GET', headers: options.headers, timeout: PROBE_TIMEOUT_MS },
      (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (body += chunk));
        response.on('end', () => done({ headers: response.headers, body }));
        response.on('error', () => done(undefined));
      },
    );
    request.on('timeout', () => request.destroy());
    request.on('error', () => done(undefined));
    request.on('close', () => done(undefined));
    request.end(options.body);
  });
}

function parsed(answer: ProbeAnswer | undefined): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(answer?.body ?? '');
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A DynamoDB ListTables, as any SDK sends it (DynamoDB Local checks that a signature is there, not
 * what it is): DynamoDB answers with an x-amzn-RequestId header, whatever else it says. Signed with
 * the access key the stack would use (an emulator without -sharedDb keeps a database per key): the
 * tables listed are those `DYNAMODB_ENDPOINT=… npm start` would find.
 */
async function dynamodbTables(port: number): Promise<string[] | undefined> {
  const answer = await probe(port, '/', {
    method: 'POST',
    headers: {
      'Content-Type': 'application/x-amz-json-1.0',
      'X-Amz-Target': 'DynamoDB_20120810.ListTables',
      Authorization: `AWS4-HMAC-SHA256 Credential=${localCredentials().accessKeyId}/20260101/us-east-1/dynamodb/aws4_request, SignedHeaders=host, Signature=0`,
    },
    body: '{}',
  });
  if (!answer?.headers['x-amzn-requestid']) return undefined;
  const names = parsed(answer)?.TableNames;
  return Array.isArray(names) ? names.map(String) : [];
}

/** Whether the port serves this API: its index at `apiPath` links the OpenAPI document. */
async function servesThisApi(port: number, apiPath: string): Promise<boolean> {
  const index = parsed(await probe(port, apiPath, { headers: { Accept: 'application/json' } }));
  return typeof index?.openapi === 'string' && Array.isArray(index.endpoints);
}

export async function portHolder(port: number, apiPath: string): Promise<PortHolder> {
  if (await portFree(port)) return { kind: 'free' };
  const tables = await dynamodbTables(port);
  if (tables) return { kind: 'dynamodb-local', tables };
  if (await servesThisApi(port, apiPath)) return { kind: 'this-api' };
  return { kind: 'other' };
}
