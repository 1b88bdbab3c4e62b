import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { handler as fallback } from '../../functions/fallback/not-found.ts';
import { METRICS_NAMESPACE, SERVICE_NAME } from '#lib/http/access-log.ts';
import { emfRecord } from '#lib/http/metrics.ts';
import { API_PREFIX } from '#lib/routes.ts';
import { startApi, type TestApi, type TestUser } from '../support/api.ts';

// The request log (lib/http/access-log.ts): one JSON line per request with its route, status,
// latency and DynamoDB cost, and nothing secret; EMF metrics with a cold start in Lambda.

// Lambda sets this before the code loads: an on-demand instance's first request is a cold start.
vi.hoisted(() => {
  process.env.AWS_LAMBDA_INITIALIZATION_TYPE = 'on-demand';
});

/** Runs `work` with LOG_LEVEL set to `level`, then restores the suite's level. */
async function atLogLevel<T>(level: string, work: () => Promise<T>): Promise<T> {
  const before = process.env.LOG_LEVEL;
  process.env.LOG_LEVEL = level;
  try {
    return await work();
  } finally {
    if (before === undefined) delete process.env.LOG_LEVEL;
    else process.env.LOG_LEVEL = before;
  }
}

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

describe('the embedded metric format', () => {
  it('declares each metric with its unit under the namespace and dimensions, and carries its value', () => {
    const record = emfRecord('Space', { service: 'svc', function_name: 'fn' }, [
      { name: 'Latency', unit: 'Milliseconds', value: 12.5 },
      { name: 'DynamoDBCalls', unit: 'Count', value: 2 },
    ], 1_700_000_000_000);
    expect(record).toEqual({
      _aws: {
        Timestamp: 1_700_000_000_000,
        CloudWatchMetrics: [
          {
            Namespace: 'Space',
            Dimensions: [['service', 'function_name']],
            Metrics: [
              { Name: 'Latency', Unit: 'Milliseconds' },
              { Name: 'DynamoDBCalls', Unit: 'Count' },
            ],
          },
        ],
      },
      service: 'svc',
      function_name: 'fn',
      Latency: 12.5,
      DynamoDBCalls: 2,
    });
  });
});

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

  it('counts no cold start on a provisioned-concurrency instance, whose first request is warm', async () => {
    process.env.AWS_LAMBDA_INITIALIZATION_TYPE = 'provisioned-concurrency';
    try {
      vi.resetModules();
      const fresh = (await import('../../functions/fallback/not-found.ts')).handler;
      const lines = parsed(await stdoutOf(() => fresh(lambdaEvent('GET', `${API_PREFIX}/nowhere`), context)));
      expect(lines.some((line) => 'ColdStart' in line)).toBe(false);
      expect(lines.some((line) => 'Latency' in line)).toBe(true);
    } finally {
      process.env.AWS_LAMBDA_INITIALIZATION_TYPE = 'on-demand';
    }
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

  it('honours LOG_LEVEL: request lines are written at info, and not at error', async () => {
    // The tests run with LOG_LEVEL=error: request lines (info) are not written.
    expect(process.env.LOG_LEVEL).toBe('error');
    const quiet = await stdoutOf(() => alice.api.get('/auth'));
    expect(quiet.filter((line) => line.includes('"request"'))).toEqual([]);
    const loud = await atLogLevel('INFO', () => stdoutOf(() => alice.api.get('/auth')));
    expect(parsed(loud).filter((line) => line.message === 'request')).toHaveLength(1);
  });

  it('writes one JSON line per request with its route, status, latency and DynamoDB cost', async () => {
    const created = await alice.api.post('/posts', { form: { title: 'Logged post', description: 'x', publish: 'true' } });
    expect(created.status).toBe(201);
    const lines = parsed(await atLogLevel('info', () => stdoutOf(() => alice.api.get(`/posts/detail/${created.body.slug}`))));
    const requests = lines.filter((line) => line.message === 'request');
    expect(requests).toHaveLength(1);
    const line = requests[0]!;
    expect(line).toMatchObject({
      level: 'info',
      service: SERVICE_NAME,
      route: `GET ${API_PREFIX}/posts/detail/{slug}`,
      method: 'GET',
      path: `${API_PREFIX}/posts/detail/${created.body.slug}`,
      status: 200,
      coldStart: false,
    });
    expect(line.requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(line.lambdaRequestId).toBe(line.requestId); // the local server uses one id for both
    expect(new Date(line.time).toISOString()).toBe(line.time);
    expect(line.latencyMs).toBeGreaterThan(0);
    // A first view: read the token and the post, then write the visit and the post.
    expect(line.dynamodbCalls).toBeGreaterThanOrEqual(2);
    expect(line.consumedCapacity.read).toBeGreaterThan(0);
    expect(line.consumedCapacity.write).toBeGreaterThan(0);
    expect(Object.keys(line).sort()).toEqual(
      ['consumedCapacity', 'coldStart', 'dynamodbCalls', 'lambdaRequestId', 'latencyMs', 'level', 'message', 'method', 'path', 'requestId', 'route', 'service', 'status', 'time'].sort(),
    );
  });

  it('logs 404s and failed logins, and never a token, a password, a header or a body', async () => {
    let issued = '';
    const lines = await atLogLevel('info', () => stdoutOf(async () => {
      issued = (await api.client().post('/login', { json: { username: alice.username, password: 'a secret passphrase' } })).body.token;
      await api.client().post('/login', { form: { username: alice.username, password: 'wrong secret words' } });
      await alice.api.get('/tags', { query: { q: 'searched text' } });
      await alice.api.get('/nowhere');
      await alice.api.request('PATCH', '/posts');
    }));
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
