import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import autocannon from 'autocannon';
import { BatchGetCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { db } from '#lib/db/client.ts';
import { keys, type Key } from '#lib/db/keys.ts';
import { tableName } from '#lib/config.ts';
import { childEnvironment } from '../local/settings.ts';
import { tokenKey } from '#lib/auth/tokens.ts';
import { PROJECT_ROOT } from '../../infra/api-function.ts';
import { API_PREFIX } from '#lib/routes.ts';
import { handler as tagDetail } from '../../functions/tags/detail.ts';
import { gatewayEvent, lambdaContext } from '../local/gateway-event.ts';
import { ownCpuMs, processCpuMs } from './cpu.ts';
import { freePort, type BenchStack } from './stack.ts';
import { median, quantile, spread, type Spread } from './stats.ts';

// Part 3: latency and throughput through the local server under autocannon, beside a bare
// GetItem loop against the same emulator in the same run, and three more references that split
// the difference: the detail's own read (a BatchGetItem of token and tag) as a bare loop, the
// detail handler invoked in this process as Lambda invokes it (no HTTP), and the floor handler
// (one GetItem) behind a minimal HTTP server. Every round runs every target in turn, so that a
// slow moment of the machine falls on all of them alike.

/** CPU ms per request, median over the rounds, of each process that works on it. */
export interface CpuPerRequest {
  /** This process: the load tool, or the bare loop or in-process handler itself. */
  bench: number;
  /** The HTTP server's process (the API or the floor server); NaN when there is none. */
  server: number;
  dynamodbLocal: number;
}

export interface LoadFigures {
  name: string;
  p50: Spread;
  p99: Spread;
  rps: Spread;
  cpu: CpuPerRequest;
}

export interface LoadSettings {
  connections: number;
  seconds: number;
  rounds: number;
}

export interface LoadResults {
  targets: LoadFigures[];
  /** Per round: detail p50 over HTTP / bare GetItem p50 of that round. */
  detailRatio: Spread;
  /** Per round: the detail handler invoked in-process, p50 / bare GetItem p50 of that round. */
  handlerRatio: Spread;
}

export const TARGETS = {
  bareGet: 'bare GetItem loop (no HTTP, no handler)',
  bareBatch: 'bare BatchGetItem loop (token + tag: the detail read)',
  handler: 'detail handler invoked in-process, as Lambda does (no HTTP)',
  floorHttp: 'floor handler over HTTP (one GetItem, plain node:http)',
  detail: 'GET /tags/detail/{slug}',
} as const;

interface Sample {
  p50: number;
  p99: number;
  rps: number;
  count: number;
  errors: number;
}

const figures = (latencies: number[], seconds: number, errors: number): Sample => ({
  p50: quantile(latencies, 0.5),
  p99: quantile(latencies, 0.99),
  rps: latencies.length / seconds,
  count: latencies.length,
  errors,
});

interface Target {
  name: string;
  /** The HTTP server process the target's requests go to, if any. */
  server?: ChildProcess;
  run(seconds: number): Promise<Sample>;
}

interface Measured extends Sample {
  cpu: CpuPerRequest;
}

/** One run of a target, with the CPU each process spent on it per request. */
async function measure(target: Target, seconds: number, dynamodbLocalPid: number | undefined): Promise<Measured> {
  const cpuNow = () => ({ bench: ownCpuMs(), server: processCpuMs(target.server?.pid), dynamodbLocal: processCpuMs(dynamodbLocalPid) });
  const before = cpuNow();
  const sample = await target.run(seconds);
  const after = cpuNow();
  const per = (key: keyof CpuPerRequest) => (after[key] - before[key]) / sample.count;
  return { ...sample, cpu: { bench: per('bench'), server: per('server'), dynamodbLocal: per('dynamodbLocal') } };
}

/** A script of this project in its own `node` process, once it prints `readyText`. */
async function startProcess(script: string, env: Record<string, string>, readyText: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', script], {
    cwd: PROJECT_ROOT,
    env: childEnvironment(env),
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((ready, fail) => {
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes(readyText)) ready();
    });
    child.once('exit', (code) => fail(new Error(`${script} exited with ${code}: ${output}`)));
  });
  return child;
}

/**
 * autocannon's own percentiles are whole milliseconds, too coarse below a few ms: the latency of
 * every 2xx answer is taken from its `response` event (hrtime, fractions of a ms) instead.
 */
function cannon(options: autocannon.Options): Promise<Sample> {
  return new Promise((done, fail) => {
    const latencies: number[] = [];
    const instance = autocannon(options, (error: unknown, result: autocannon.Result) => {
      if (error) fail(error instanceof Error ? error : new Error(String(error)));
      else done(figures(latencies, Number(options.duration), result.errors + result.timeouts + result.non2xx));
    });
    instance.on('response', (_client, status, _bytes, ms) => {
      if (status >= 200 && status < 300) latencies.push(ms);
    });
  });
}

/** `connections` loops of `call` for `seconds`, in this process. */
async function loop(connections: number, seconds: number, call: () => Promise<unknown>): Promise<Sample> {
  const latencies: number[] = [];
  const deadline = performance.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (performance.now() < deadline) {
        const started = performance.now();
        await call();
        latencies.push(performance.now() - started);
      }
    }),
  );
  return figures(latencies, seconds, 0);
}

/** GET /tags/detail/{slug} as API Gateway and Lambda hand it to the function (as `npm start` does). */
async function invokeDetail(slug: string, token: string): Promise<void> {
  const routeKey = `GET ${API_PREFIX}/tags/detail/{slug}`;
  const event = gatewayEvent({
    method: 'GET',
    routeKey,
    rawPath: `${API_PREFIX}/tags/detail/${slug}`,
    rawQuery: '',
    headers: { authorization: `Token ${token}`, host: '127.0.0.1' },
    params: { slug },
  });
  const result = await tagDetail(event, lambdaContext('tags-detail', event.requestContext.requestId));
  if (result.statusCode !== 200) throw new Error(`tag detail in-process: ${result.statusCode}`);
}

async function seedPosts(url: string, form: Record<string, string>): Promise<void> {
  for (let i = 0; i < 150; i++) {
    const body = new URLSearchParams({
      title: `Seed ${i} ${randomUUID().slice(0, 6)}`,
      description: 'A post body of a typical short length. '.repeat(10),
      tags: 'Load test',
      publish: 'true',
    });
    const response = await fetch(`${url}/posts`, { method: 'POST', headers: form, body: body.toString() });
    if (response.status !== 201) throw new Error(`seeding posts: ${response.status}`);
  }
}

export async function measureLoad(stack: BenchStack, settings: LoadSettings): Promise<LoadResults> {
  await stack.freshTable();
  const user = await stack.login();
  const headers = { Authorization: `Token ${user.token}` };
  const form = { ...headers, 'Content-Type': 'application/x-www-form-urlencoded' };
  const tag = (await (await fetch(`${stack.server.url}/tags`, { method: 'POST', headers: form, body: 'title=Load+test' })).json()) as { slug: string };
  await seedPosts(stack.server.url, form);
  // The floor handler reads { PK: 'floor', SK: 'floor' }: a copy of the tag, so both read as much.
  const tagItem = (await db().send(new GetCommand({ TableName: tableName(), Key: keys.tag(tag.slug) }))).Item!;
  await db().send(new PutCommand({ TableName: tableName(), Item: { ...tagItem, PK: 'floor', SK: 'floor' } }));

  const environment = { DYNAMODB_ENDPOINT: stack.emulator.endpoint, TABLE_NAME: tableName(), LOG_LEVEL: 'error' };
  const apiPort = await freePort();
  const floorPort = await freePort();
  const children: ChildProcess[] = [];
  try {
    const apiServer = await startProcess('scripts/start.ts', { ...environment, PORT: String(apiPort), ACCESS_LOG: '0' }, 'API ready');
    children.push(apiServer);
    const floorServer = await startProcess(
      'scripts/bench/floor-server.ts',
      {
        ...environment,
        PORT: String(floorPort),
        AWS_ENDPOINT_URL_DYNAMODB: stack.emulator.endpoint,
        AWS_REGION: 'us-east-1',
        AWS_ACCESS_KEY_ID: 'local',
        AWS_SECRET_ACCESS_KEY: 'local',
      },
      'floor ready',
    );
    children.push(floorServer);
    const api = `http://127.0.0.1:${apiPort}/api/v1`;
    const { connections } = settings;
    const common = (duration: number) => ({ connections, duration, headers });
    const tagKey: Key = keys.tag(tag.slug);
    let counter = 0;
    const targets: Target[] = [
      { name: TARGETS.bareGet, run: (seconds) => loop(connections, seconds, () => db().send(new GetCommand({ TableName: tableName(), Key: tagKey }))) },
      {
        name: TARGETS.bareBatch,
        run: (seconds) =>
          loop(connections, seconds, () => db().send(new BatchGetCommand({ RequestItems: { [tableName()]: { Keys: [tokenKey(user.token), tagKey] } } }))),
      },
      { name: TARGETS.handler, run: (seconds) => loop(connections, seconds, () => invokeDetail(tag.slug, user.token)) },
      { name: TARGETS.floorHttp, server: floorServer, run: (seconds) => cannon({ ...common(seconds), url: `http://127.0.0.1:${floorPort}/` }) },
      { name: TARGETS.detail, server: apiServer, run: (seconds) => cannon({ ...common(seconds), url: `${api}/tags/detail/${tag.slug}` }) },
      { name: 'GET /posts (100 posts a page)', server: apiServer, run: (seconds) => cannon({ ...common(seconds), url: `${api}/posts` }) },
      { name: 'GET /posts?page_size=10', server: apiServer, run: (seconds) => cannon({ ...common(seconds), url: `${api}/posts?page_size=10` }) },
      {
        name: 'POST /posts',
        server: apiServer,
        run: (seconds) =>
          cannon({
            ...common(seconds),
            url: `${api}/posts`,
            method: 'POST',
            headers: form,
            requests: [
              {
                setupRequest: (request) => ({
                  ...request,
                  body: new URLSearchParams({
                    title: `Load ${counter++} ${randomUUID().slice(0, 6)}`,
                    description: 'Load body.',
                    tags: 'Load test',
                    publish: 'true',
                  }).toString(),
                }),
              },
            ],
          }),
      },
    ];
    // One short warm-up of each target: JIT, connection pools, the handlers' first imports.
    for (const target of targets) await target.run(1);
    const rounds = new Map<string, Measured[]>(targets.map((target) => [target.name, []]));
    for (let round = 0; round < settings.rounds; round++) {
      for (const target of targets) {
        const sample = await measure(target, settings.seconds, stack.emulator.process.pid);
        if (sample.errors > 0) throw new Error(`${target.name}: ${sample.errors} failed requests under load`);
        rounds.get(target.name)!.push(sample);
      }
    }
    const bare = rounds.get(TARGETS.bareGet)!;
    const ratio = (name: string) => spread(rounds.get(name)!.map((sample, i) => sample.p50 / bare[i]!.p50));
    const medianOf = (list: Measured[], key: keyof CpuPerRequest) => median(list.map((sample) => sample.cpu[key]));
    return {
      targets: [...rounds].map(([name, list]) => ({
        name,
        p50: spread(list.map((r) => r.p50)),
        p99: spread(list.map((r) => r.p99)),
        rps: spread(list.map((r) => r.rps)),
        cpu: { bench: medianOf(list, 'bench'), server: medianOf(list, 'server'), dynamodbLocal: medianOf(list, 'dynamodbLocal') },
      })),
      detailRatio: ratio(TARGETS.detail),
      handlerRatio: ratio(TARGETS.handler),
    };
  } finally {
    for (const child of children) child.kill('SIGTERM');
  }
}
