import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { METRICS_NAMESPACE } from '#lib/metrics.ts';
import { SERVICE_NAME } from '#lib/log.ts';
import { API_PREFIX } from '#lib/routes.ts';
import { startApi, type TestApi, type TestUser } from '../support/api.ts';

// The request log (lib/http/access-log.ts): one JSON line per request through the Powertools
// Logger with its route, status, latency and DynamoDB cost, and nothing secret; EMF metrics
// through Powertools Metrics, with a cold start, in Lambda only.

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

/** Everything written to stdout (or stderr) while `work` runs, as lines. */
async function stdoutOf(work: () => Promise<unknown>, stream: NodeJS.WriteStream = process.stdout): Promise<string[]> {
  const chunks: string[] = [];
  const spy = vi.spyOn(stream, 'write').mockImplementation((chunk: string | Uint8Array) => {
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

type Handler = (event: APIGatewayProxyEventV2, context: Context) => Promise<unknown>;

/** The fallback handler from fresh modules (a new instance: cold), with `env` set while they load. */
async function freshFallback(env: Record<string, string | undefined>): Promise<Handler> {
  vi.resetModules();
  for (const [name, value] of Object.entries(env)) vi.stubEnv(name, value);
  return (await import('../../functions/fallback/not-found.ts')).handler;
}

const emfLines = (lines: Record<string, any>[]) => lines.filter((line) => line._aws);
const metricNames = (line: Record<string, any>) => line._aws.CloudWatchMetrics[0].Metrics.map((m: { Name: string }) => m.Name).sort();

describe('metrics, as in Lambda', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it('publishes a ColdStart metric on the first request only, and the request metrics on each, in the embedded metric format', async () => {
    const fallback = await freshFallback({ AWS_LAMBDA_FUNCTION_NAME: context.functionName });
    const first = parsed(await stdoutOf(() => fallback(lambdaEvent('GET', `${API_PREFIX}/nowhere`), context)));
    const emf = emfLines(first);
    expect(emf).toHaveLength(2);
    const coldStart = emf.find((line) => 'ColdStart' in line)!;
    expect(coldStart).toEqual({
      _aws: {
        Timestamp: expect.any(Number),
        CloudWatchMetrics: [{ Namespace: METRICS_NAMESPACE, Dimensions: [['service', 'function_name']], Metrics: [{ Name: 'ColdStart', Unit: 'Count' }] }],
      },
      service: SERVICE_NAME,
      function_name: 'CommunityPosts-FallbackNotFound',
      ColdStart: 1,
    });
    const request = emf.find((line) => 'Latency' in line)!;
    expect(request).toEqual({
      _aws: {
        Timestamp: expect.any(Number),
        CloudWatchMetrics: [
          {
            Namespace: METRICS_NAMESPACE,
            Dimensions: [['service']],
            Metrics: [
              { Name: 'Latency', Unit: 'Milliseconds' },
              { Name: 'DynamoDBCalls', Unit: 'Count' },
              { Name: 'ConsumedReadCapacity', Unit: 'Count' },
              { Name: 'ConsumedWriteCapacity', Unit: 'Count' },
            ],
          },
        ],
      },
      service: SERVICE_NAME,
      Latency: expect.any(Number),
      DynamoDBCalls: 0,
      ConsumedReadCapacity: 0,
      ConsumedWriteCapacity: 0,
    });
    expect(Math.abs(request._aws.Timestamp - Date.now())).toBeLessThan(60_000);

    const second = parsed(await stdoutOf(() => fallback(lambdaEvent('GET', `${API_PREFIX}/nowhere`), context)));
    expect(second.some((line) => 'ColdStart' in line)).toBe(false);
    expect(emfLines(second).map(metricNames)).toEqual([['ConsumedReadCapacity', 'ConsumedWriteCapacity', 'DynamoDBCalls', 'Latency']]);
  });

  it('counts a ServerErrors metric for an answer of 500 or more', async () => {
    const fallback = await freshFallback({ AWS_LAMBDA_FUNCTION_NAME: context.functionName });
    // An event without a path is no request the fallback can answer: it throws, the responder answers 500.
    const broken = { ...lambdaEvent('GET', `${API_PREFIX}/nowhere`), rawPath: undefined } as unknown as APIGatewayProxyEventV2;
    let status = 0;
    let errors: string[] = [];
    const lines = parsed(
      await stdoutOf(async () => {
        errors = await stdoutOf(async () => {
          status = ((await fallback(broken, context)) as { statusCode: number }).statusCode;
        }, process.stderr);
      }),
    );
    expect(status).toBe(500);
    expect(parsed(errors).map((line) => [line.level, line.message, line.error?.name])).toEqual([['ERROR', 'unhandled error', 'TypeError']]);
    const request = emfLines(lines).find((line) => 'Latency' in line)!;
    expect(request.ServerErrors).toBe(1);
    expect(metricNames(request)).toContain('ServerErrors');
  });

  it('counts no cold start on a provisioned-concurrency instance, whose first request is warm', async () => {
    const fallback = await freshFallback({ AWS_LAMBDA_FUNCTION_NAME: context.functionName, AWS_LAMBDA_INITIALIZATION_TYPE: 'provisioned-concurrency' });
    const lines = parsed(await stdoutOf(() => atLogLevel('info', () => fallback(lambdaEvent('GET', `${API_PREFIX}/nowhere`), context))));
    expect(lines.some((line) => 'ColdStart' in line)).toBe(false);
    expect(lines.some((line) => 'Latency' in line)).toBe(true);
    expect(lines.find((line) => line.message === 'request')).toMatchObject({ coldStart: false, cold_start: false });
  });

  it('publishes none outside Lambda', async () => {
    const fallback = await freshFallback({ AWS_LAMBDA_FUNCTION_NAME: undefined });
    const lines = parsed(await stdoutOf(() => atLogLevel('info', () => fallback(lambdaEvent('GET', `${API_PREFIX}/nowhere`), context))));
    expect(emfLines(lines)).toEqual([]);
    expect(lines.filter((line) => line.message === 'request')).toHaveLength(1);
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
    let answer: Awaited<ReturnType<typeof alice.api.get>> | undefined;
    const lines = parsed(await atLogLevel('info', () => stdoutOf(async () => (answer = await alice.api.get(`/posts/detail/${created.body.slug}`)))));
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
    // As on AWS, the answer's apigw-requestid is the event's request id: an answer finds its line.
    expect(answer!.headers.get('apigw-requestid')).toBe(line.requestId);
    expect(new Date(line.timestamp).toISOString()).toBe(line.timestamp);
    // The Lambda context's fields, which the logger adds to every line of the request.
    expect(line).toMatchObject({ function_name: 'PostsDetail', function_request_id: line.lambdaRequestId, cold_start: false, sampling_rate: 0 });
    expect(line.latencyMs).toBeGreaterThan(0);
    // A first view: read the token and the post, then write the visit and the post.
    expect(line.dynamodbCalls).toBeGreaterThanOrEqual(2);
    expect(line.consumedCapacity.read).toBeGreaterThan(0);
    expect(line.consumedCapacity.write).toBeGreaterThan(0);
    expect(Object.keys(line).sort()).toEqual(
      [
        ...['consumedCapacity', 'coldStart', 'dynamodbCalls', 'lambdaRequestId', 'latencyMs', 'method', 'path', 'requestId', 'route', 'status'],
        // Powertools Logger's own, and the Lambda context's (injectLambdaContext).
        ...[
          'level',
          'message',
          'service',
          'timestamp',
          'sampling_rate',
          'cold_start',
          'function_arn',
          'function_memory_size',
          'function_name',
          'function_request_id',
        ],
      ].sort(),
    );
  });

  it('stamps each line with its own function, when requests to several functions run at once', async () => {
    // The local server runs every function in one process, as Lambda's managed instances run
    // concurrent invocations in one environment: one invocation's context must not reach another's lines.
    const routes: [string, string][] = [
      ['/auth', 'AuthCheck'],
      ['/tags', 'TagsList'],
      ['/posts', 'PostsList'],
      ['/users', 'UsersList'],
    ];
    const lines = await atLogLevel('info', () =>
      stdoutOf(() => Promise.all(Array.from({ length: 5 }, () => routes.map(([path]) => alice.api.get(path))).flat())),
    );
    const requests = parsed(lines).filter((line) => line.message === 'request');
    expect(requests).toHaveLength(20);
    const handlerOf = new Map(routes.map(([path, name]) => [`GET ${API_PREFIX}${path}`, name]));
    expect(requests.map((line) => [line.route, line.function_name])).toEqual(requests.map((line) => [line.route, handlerOf.get(line.route)]));
    expect(requests.every((line) => line.function_request_id === line.lambdaRequestId)).toBe(true);
  });

  it('logs 404s and failed logins, and never a token, a password, a header or a body', async () => {
    let issued = '';
    const lines = await atLogLevel('info', () =>
      stdoutOf(async () => {
        issued = (await api.client().post('/login', { json: { username: alice.username, password: 'a secret passphrase' } })).body.token;
        await api.client().post('/login', { form: { username: alice.username, password: 'wrong secret words' } });
        await alice.api.get('/tags', { query: { q: 'searched text' } });
        await alice.api.get('/nowhere');
        await alice.api.request('PATCH', '/posts');
      }),
    );
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
