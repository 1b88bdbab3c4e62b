import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { handler as fallback } from '../functions/fallback/not-found.ts';
import { METRICS_NAMESPACE, powertoolsLogLevel, requestLogger, SERVICE_NAME } from '../lib/http/access-log.ts';
import { API_PREFIX } from '../lib/routes.ts';
import { startApi, type TestApi, type TestUser } from './support/api.ts';

// The request log (lib/http/access-log.ts): one JSON line per request with its route, status,
// latency and DynamoDB cost, and nothing secret; EMF metrics with a cold start in Lambda.

// Lambda sets this before the code loads; Powertools counts a cold start only with it.
vi.hoisted(() => {
  process.env.AWS_LAMBDA_INITIALIZATION_TYPE = 'on-demand';
});

/** Everything written to stdout while `work` runs, as lines. */
async function stdoutOf(work: () => Promise<unknown>): Promise<string[]> {
  const chunks: string[] = [];
  const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    chunks.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
    return true;
  });
  try {
    await work();
  } finally {
    spy.mockRestore();
  }
  return chunks.join('').split('\n').filter(Boolean);
}

const parsed = (lines: string[]) => lines.map((line) => JSON.parse(line) as Record<string, any>);

function lambdaEvent(method: string, path: string): APIGatewayProxyEventV2 {
  return {
    version: '2.0',
    routeKey: '$default',
    rawPath: path,
    rawQueryString: '',
    headers: {},
    requestContext: { http: { method, path }, requestId: `req-${Math.random().toString(36).slice(2)}` },
    isBase64Encoded: false,
  } as unknown as APIGatewayProxyEventV2;
}
const context = { awsRequestId: 'lambda-request-1', functionName: 'CommunityPosts-FallbackNotFound' } as Context;

describe('metrics, as in Lambda', () => {
  beforeAll(() => {
    process.env.AWS_LAMBDA_FUNCTION_NAME = 'CommunityPosts-FallbackNotFound';
  });
  afterAll(() => {
    delete process.env.AWS_LAMBDA_FUNCTION_NAME;
  });

  it('publishes a ColdStart metric on the first request only, and the request metrics on each', async () => {
    const first = parsed(await stdoutOf(() => fallback(lambdaEvent('GET', `${API_PREFIX}/nowhere`), context)));
    const emf = first.filter((line) => line._aws);
    const coldStart = emf.find((line) => 'ColdStart' in line);
    expect(coldStart).toMatchObject({ ColdStart: 1, function_name: 'CommunityPosts-FallbackNotFound', service: SERVICE_NAME });
    expect(coldStart!._aws.CloudWatchMetrics[0].Namespace).toBe(METRICS_NAMESPACE);
    const request = emf.find((line) => 'Latency' in line);
    expect(request).toMatchObject({ DynamoDBCalls: 0, ConsumedReadCapacity: 0, ConsumedWriteCapacity: 0, service: SERVICE_NAME });
    expect(request!._aws.CloudWatchMetrics[0].Metrics.map((m: { Name: string }) => m.Name).sort()).toEqual(
      ['ConsumedReadCapacity', 'ConsumedWriteCapacity', 'DynamoDBCalls', 'Latency'].sort(),
    );

    const second = parsed(await stdoutOf(() => fallback(lambdaEvent('GET', `${API_PREFIX}/nowhere`), context)));
    expect(second.some((line) => 'ColdStart' in line)).toBe(false);
    expect(second.some((line) => 'Latency' in line)).toBe(true);
  });
});

describe('the request log line', () => {
  let api: TestApi;
  let alice: TestUser;
  beforeAll(async () => {
    api = await startApi();
    alice = await api.user('alice', 'a secret passphrase');
  });
  afterAll(() => api?.close());
  afterEach(() => requestLogger.setLogLevel(powertoolsLogLevel()));

  it('honours LOG_LEVEL (lower case, as the project writes it)', async () => {
    expect(powertoolsLogLevel('error')).toBe('ERROR');
    expect(powertoolsLogLevel('Silent')).toBe('SILENT');
    expect(powertoolsLogLevel('debug')).toBe('DEBUG');
    expect(powertoolsLogLevel('nonsense')).toBe('INFO');
    expect(powertoolsLogLevel('')).toBe('INFO');
    // The tests run with LOG_LEVEL=error: request lines (info) are not written.
    expect(requestLogger.getLevelName()).toBe('ERROR');
    const lines = await stdoutOf(() => alice.api.get('/auth'));
    expect(lines.filter((line) => line.includes('"request"'))).toEqual([]);
  });

  it('writes one JSON line per request with its route, status, latency and DynamoDB cost', async () => {
    const created = await alice.api.post('/posts', { form: { title: 'Logged post', description: 'x', publish: 'true' } });
    expect(created.status).toBe(201);
    requestLogger.setLogLevel('INFO');
    const lines = parsed(await stdoutOf(() => alice.api.get(`/posts/detail/${created.body.slug}`)));
    const requests = lines.filter((line) => line.message === 'request');
    expect(requests).toHaveLength(1);
    const line = requests[0]!;
    expect(line).toMatchObject({
      level: 'INFO',
      service: SERVICE_NAME,
      route: `GET ${API_PREFIX}/posts/detail/{slug}`,
      method: 'GET',
      path: `${API_PREFIX}/posts/detail/${created.body.slug}`,
      status: 200,
      coldStart: false,
    });
    expect(line.requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(line.lambdaRequestId).toBe(line.requestId); // the local server uses one id for both
    expect(typeof line.timestamp).toBe('string');
    expect(line.latencyMs).toBeGreaterThan(0);
    // A first view: read the token and the post, then write the visit and the post.
    expect(line.dynamodbCalls).toBeGreaterThanOrEqual(2);
    expect(line.consumedCapacity.read).toBeGreaterThan(0);
    expect(line.consumedCapacity.write).toBeGreaterThan(0);
    expect(Object.keys(line).sort()).toEqual(
      ['consumedCapacity', 'coldStart', 'dynamodbCalls', 'lambdaRequestId', 'latencyMs', 'level', 'message', 'method', 'path', 'requestId', 'route', 'sampling_rate', 'service', 'status', 'timestamp']
        .filter((key) => key !== 'sampling_rate' || 'sampling_rate' in line)
        .sort(),
    );
  });

  it('logs 404s and failed logins, and never a token, a password, a header or a body', async () => {
    requestLogger.setLogLevel('INFO');
    let issued = '';
    const lines = await stdoutOf(async () => {
      issued = (await api.client().post('/login', { json: { username: alice.username, password: 'a secret passphrase' } })).body.token;
      await api.client().post('/login', { form: { username: alice.username, password: 'wrong secret words' } });
      await alice.api.get('/tags', { query: { q: 'searched text' } });
      await alice.api.get('/nowhere');
      await alice.api.request('PATCH', '/posts');
    });
    const requests = parsed(lines).filter((line) => line.message === 'request');
    expect(requests.map((line) => [line.route, line.status])).toEqual([
      [`POST ${API_PREFIX}/login`, 200],
      [`POST ${API_PREFIX}/login`, 400],
      [`GET ${API_PREFIX}/tags`, 200],
      ['$default', 404],
      ['$default', 405],
    ]);
    expect(requests[0]!.dynamodbCalls).toBeGreaterThan(0);
    expect(requests[3]!.dynamodbCalls).toBe(0);
    const all = lines.join('\n');
    expect(issued).toMatch(/^[0-9a-f]{40}$/);
    for (const secret of [issued, alice.token, 'a secret passphrase', 'wrong secret words', 'searched text', 'Authorization', 'authorization', 'Token ']) {
      expect(all).not.toContain(secret);
    }
  });
});
