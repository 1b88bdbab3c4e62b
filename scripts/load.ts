import './bench/environment.ts';
import { parseArgs } from 'node:util';
import { awsRegion, tableName } from '#lib/config.ts';
import { localSettings, useDefaults } from './local/settings.ts';
import { attachMeter, type Meter } from './bench/meter.ts';
import { machine } from './bench/report.ts';
import { startBenchStack, type BenchStack } from './bench/stack.ts';
import { fetchInit } from './local/client-request.ts';
import { startStreamPollers, type StreamPollers } from './local/stream-poller.ts';
import { drive } from './load/drive.ts';
import { MIX, renderMix } from './load/mix.ts';
import { buildReport, renderReport, type Measured } from './load/report.ts';
import { recordRequestUsage, type UsageLog } from './local/request-usage.ts';
import { planRequest } from './load/workload.ts';
import { seededRandom, seedWorld, type World } from './load/world.ts';

// `npm run load`: a mixed workload (scripts/load/mix.ts, the mix of docs/scale.md) against the
// local stack: throughput, latency, status codes, and DynamoDB calls and capacity per request by
// operation kind. Never part of `npm test`.

const USAGE = `Usage: npm run load [-- options]

  --duration <s>      seconds of load (default 30)
  --connections <n>   concurrent connections, one request in flight each (default 8)
  --url <api url>     drive a running stack (npm start: http://127.0.0.1:3000/api/v1) instead of
                      starting one; its data is added to, and DynamoDB usage is not metered
                      (the API runs in another process). Accounts and featured flags are written
                      to DYNAMODB_ENDPOINT and TABLE_NAME, as npm run seed does.
  --posts <n>         posts seeded before the run (default 300)
  --users <n>         users seeded, each logged in (default 40)
  --seed <n>          seed of the random choices: data and mix (default 1)`;

interface Options {
  seconds: number;
  connections: number;
  url: string | undefined;
  posts: number;
  users: number;
  seed: number;
}

function options(): Options {
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        duration: { type: 'string', default: '30' },
        connections: { type: 'string', default: '8' },
        url: { type: 'string' },
        posts: { type: 'string', default: '300' },
        users: { type: 'string', default: '40' },
        seed: { type: 'string', default: '1' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (error) {
    console.error(`${(error as Error).message}\n\n${USAGE}`);
    process.exit(2);
  }
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  const whole = (name: string, text: string, min: number) => {
    const value = Number(text);
    if (!Number.isInteger(value) || value < min) {
      console.error(`--${name} must be a whole number of at least ${min}, not ${JSON.stringify(text)}\n\n${USAGE}`);
      process.exit(2);
    }
    return value;
  };
  return {
    seconds: whole('duration', values.duration, 1),
    connections: whole('connections', values.connections, 1),
    url: values.url?.replace(/\/+$/, ''),
    posts: whole('posts', values.posts, 30),
    users: whole('users', values.users, 2),
    seed: whole('seed', values.seed, 0),
  };
}

const step = (message: string) => console.error(`load: ${message}`);

/** One request of every kind, one after another: the handlers' first imports, and a check that each kind works. */
async function warmUp(apiUrl: string, world: World, random: () => number): Promise<void> {
  for (const entry of MIX) {
    const plan = planRequest(entry, world, random);
    const response = await fetch(`${apiUrl}${plan.path}`, fetchInit(plan));
    const text = await response.text();
    plan.onAnswer?.(response.status, text);
    if (response.status >= 400) step(`warm-up: ${entry.kind} answered ${response.status} ${text.slice(0, 200)}`);
  }
}

async function main(): Promise<void> {
  const settings = options();
  const random = seededRandom(settings.seed);
  const startedAt = new Date();
  let stack: BenchStack | undefined;
  let streams: StreamPollers | undefined;
  let usage: UsageLog | undefined;
  let streamMeter: Meter | undefined;
  try {
    let apiUrl: string;
    if (settings.url) {
      apiUrl = settings.url;
      useDefaults({ DYNAMODB_ENDPOINT: localSettings().defaultDynamodbEndpoint, AWS_REGION: 'us-east-1' });
    } else {
      step('starting DynamoDB Local, the local API and the stream consumer');
      stack = await startBenchStack();
      streams = await startStreamPollers({ server: stack.server, tableName: tableName(), region: awsRegion() });
      apiUrl = stack.server.url;
    }
    const world = await seedWorld({ apiUrl, users: settings.users, posts: settings.posts, random, progress: (line) => step(`seeding ${line}`) });
    await streams?.caughtUp(60_000);
    step('warm-up: one request of each kind');
    await warmUp(apiUrl, world, random);
    await streams?.caughtUp(60_000);
    if (stack) {
      usage = recordRequestUsage();
      streamMeter = attachMeter({ of: 'stream' });
    }
    step(`${settings.seconds} s of the mix over ${settings.connections} connections`);
    const run = await drive({ apiUrl, world, connections: settings.connections, seconds: settings.seconds, random });
    await streams?.caughtUp(60_000);
    const samples: Measured[] = run.samples.map((sample) => {
      const found = usage?.take(sample.requestId);
      return found ? { ...sample, usage: found } : sample;
    });
    const report = buildReport(run, samples, settings.connections, streamMeter?.usage());
    console.log(
      [
        `Run of ${startedAt.toISOString().slice(0, 16).replace('T', ' ')} UTC on ${machine()}: ` +
          `${settings.url ? `the API at ${settings.url}` : 'DynamoDB Local, the local API and the load tool in this process'}; ` +
          `${world.users.length} users, ${world.tags.length} tags, ${settings.posts} posts seeded (1 in 20 a draft, 1 in 10 published ones featured), seed ${settings.seed}.`,
        '',
        'The mix (scripts/load/mix.ts):',
        '',
        ...renderMix(),
        '',
        ...renderReport(report),
      ].join('\n'),
    );
  } finally {
    streamMeter?.detach();
    usage?.detach();
    await streams?.stop();
    await stack?.stop();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
