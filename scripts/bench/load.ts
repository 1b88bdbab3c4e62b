import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import autocannon from 'autocannon';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { db } from '../../lib/db/client.ts';
import { keys, type Key } from '../../lib/db/keys.ts';
import { tableName } from '../../lib/config.ts';
import { PROJECT_ROOT } from '../../infra/api-function.ts';
import { freePort, type BenchStack } from './stack.ts';
import { quantile, spread, type Spread } from './stats.ts';

// Part 3: latency and throughput through the local server under autocannon, beside a bare
// GetItem loop against the same emulator in the same run.

export interface LoadFigures {
  name: string;
  p50: Spread;
  p99: Spread;
  rps: Spread;
}

export interface LoadSettings {
  connections: number;
  seconds: number;
  rounds: number;
}

/** The API as `npm start` runs it, in its own process, on the bench's emulator and table. */
async function startApiProcess(endpoint: string): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/start.ts'], {
    cwd: PROJECT_ROOT,
    env: {
      ...process.env,
      DYNAMODB_ENDPOINT: endpoint,
      TABLE_NAME: tableName(),
      PORT: String(port),
      ACCESS_LOG: '0',
      LOG_LEVEL: 'error',
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((ready, fail) => {
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('API ready')) ready();
    });
    child.once('exit', (code) => fail(new Error(`API process exited with ${code}: ${output}`)));
  });
  return { url: `http://127.0.0.1:${port}/api/v1`, child };
}

async function cannon(options: autocannon.Options): Promise<{ p50: number; p99: number; rps: number; errors: number }> {
  const result = await autocannon(options);
  const errors = result.errors + result.timeouts + result.non2xx;
  return { p50: result.latency.p50, p99: result.latency.p99, rps: result.requests.average, errors };
}

/** `connections` loops of GetItem for `seconds`: what one DynamoDB read costs here. */
async function bareGetItem(connections: number, seconds: number, key: Key) {
  const latencies: number[] = [];
  const deadline = performance.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (performance.now() < deadline) {
        const started = performance.now();
        await db().send(new GetCommand({ TableName: tableName(), Key: key }));
        latencies.push(performance.now() - started);
      }
    }),
  );
  return { p50: quantile(latencies, 0.5), p99: quantile(latencies, 0.99), rps: latencies.length / seconds, errors: 0 };
}

export async function measureLoad(stack: BenchStack, settings: LoadSettings): Promise<LoadFigures[]> {
  await stack.freshTable();
  const user = await stack.login();
  const headers = { Authorization: `Token ${user.token}` };
  const form = { ...headers, 'Content-Type': 'application/x-www-form-urlencoded' };
  const tag = (await (await fetch(`${stack.server.url}/tags`, { method: 'POST', headers: form, body: 'title=Load+test' })).json()) as { slug: string };
  for (let i = 0; i < 150; i++) {
    const body = new URLSearchParams({ title: `Seed ${i} ${randomUUID().slice(0, 6)}`, description: 'A post body of a typical short length. '.repeat(10), tags: 'Load test', publish: 'true' });
    await fetch(`${stack.server.url}/posts`, { method: 'POST', headers: form, body: body.toString() });
  }
  const api = await startApiProcess(stack.emulator.endpoint);
  const rounds: Record<string, { p50: number; p99: number; rps: number }[]> = {};
  const record = (name: string, figures: { p50: number; p99: number; rps: number; errors: number }) => {
    if (figures.errors > 0) throw new Error(`${name}: ${figures.errors} failed requests under load`);
    (rounds[name] ??= []).push(figures);
  };
  let counter = 0;
  const common = { connections: settings.connections, duration: settings.seconds, headers };
  try {
    for (let round = 0; round < settings.rounds; round++) {
      record('bare GetItem loop (no HTTP, no handler)', await bareGetItem(settings.connections, settings.seconds, keys.tag(tag.slug)));
      record(`GET /tags/detail/{slug}`, await cannon({ ...common, url: `${api.url}/tags/detail/${tag.slug}` }));
      record('GET /posts (100 posts a page)', await cannon({ ...common, url: `${api.url}/posts` }));
      record('GET /posts?page_size=10', await cannon({ ...common, url: `${api.url}/posts?page_size=10` }));
      record(
        'POST /posts',
        await cannon({
          ...common,
          url: `${api.url}/posts`,
          method: 'POST',
          headers: form,
          requests: [
            {
              setupRequest: (request) => ({
                ...request,
                body: new URLSearchParams({ title: `Load ${round} ${counter++} ${randomUUID().slice(0, 6)}`, description: 'Load body.', tags: 'Load test', publish: 'true' }).toString(),
              }),
            },
          ],
        }),
      );
    }
  } finally {
    api.child.kill('SIGTERM');
  }
  return Object.entries(rounds).map(([name, list]) => ({
    name,
    p50: spread(list.map((r) => r.p50)),
    p99: spread(list.map((r) => r.p99)),
    rps: spread(list.map((r) => r.rps)),
  }));
}
