import { readdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';
import LongestFirst from './test/support/sequencer.ts';
import { BUNDLE_SUITES } from './test/support/bundle-suites.ts';

/** What every run shares: the projects below and the bundles' run (vitest.bundles.config.ts). */
export const SHARED_TEST_SETTINGS = {
  pool: 'forks' as const,
  testTimeout: 60_000,
  hookTimeout: 120_000,
  env: { LOG_LEVEL: 'error', AWS_REGION: 'us-east-1', AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
};

/**
 * What the suites that reach a table need: the run's DynamoDB Local (Java), started once, and a
 * database of their own in it, per file (test/support/global-setup.ts, dynamodb-local.ts).
 */
export const CONNECTED_SETUP = { globalSetup: ['test/support/global-setup.ts'], setupFiles: ['test/support/dynamodb-local.ts'] };

/**
 * How many test files run at once (TEST_WORKERS, default one per core, at least 2): each
 * connected file's handlers run in its process, and the run's DynamoDB Local answers them all, so
 * two files at once already keep two cores busy.
 */
export const TEST_WORKERS = Number(process.env.TEST_WORKERS) > 0 ? Number(process.env.TEST_WORKERS) : Math.max(2, availableParallelism());

/**
 * The connected suites that load into the test process what Lambda runs one invocation at a time
 * (stack: the bundles; tracing: the Tracer as in Lambda, modules reloaded): the AWS SDK's first call
 * there makes the process's one InvokeStore the single-invocation kind, and the local runtime needs
 * the concurrent kind (scripts/local/source-runtime.ts). A process that ran one cannot run the other.
 */
const BUNDLES_IN_PROCESS = ['test/infra/stack.test.ts', 'test/infra/tracing.test.ts'];

/**
 * A test process runs one file after another (`isolate: false`): the modules it loaded, the
 * handlers' and the SDK's, stay loaded for the next file, about 2 CPU-seconds a file saved
 * (docs/testing.md). Each file still has its own database, table, gateway, stream poller and
 * environment (test/support/dynamodb-local.ts restores it). Each in a process of its own: the
 * suites that set, before any module loads, what modules read as they load (`vi.hoisted`: the log
 * level, Lambda's variables), and those that load the bundles into the test process
 * (BUNDLES_IN_PROCESS).
 */
const FRESH_PROCESS_SUITES = [
  ...['test/api', 'test/infra'].flatMap((dir) =>
    readdirSync(new URL(dir, import.meta.url), { recursive: true, encoding: 'utf8' })
      .filter((name) => name.endsWith('.test.ts'))
      .map((name) => `${dir}/${name}`)
      .filter((file) => readFileSync(new URL(file, import.meta.url), 'utf8').includes('vi.hoisted(')),
  ),
  ...BUNDLES_IN_PROCESS,
];

/** The stack's tests that need no DynamoDB Local (the others run bundles against it). */
const OFFLINE_INFRA_SUITES = ['test/infra/settings.test.ts', 'test/infra/monitoring.test.ts', 'test/infra/site.test.ts', 'test/infra/environment.test.ts'];

/**
 * The connected suites that run alone, one at a time: they measure their own bursts and timings
 * (latencies, the retry budget against the request timeout, how many requests of a burst
 * succeed), which another suite's load on the same cores would change. `npm test`
 * (scripts/test.ts) runs them in a vitest run of their own (and so with a DynamoDB Local of their
 * own) at the normal priority, beside the others' run at the lowest (nice 19), which yields the
 * cores to them; a single vitest run (`npx vitest run`) runs them after all the others.
 * docs/testing.md says why each is here.
 */
export const ALONE_SUITES = [
  'test/api/concurrency.test.ts',
  'test/api/posts-lists-counters.test.ts',
  'test/api/slugs.test.ts',
  'test/api/tags.test.ts',
  'test/api/contention.test.ts',
  'test/api/reliability/concurrency.test.ts',
  'test/api/reliability/faults.test.ts',
  'test/api/security/sessions.test.ts',
];

/**
 * With WITH_BUNDLES=1 (.ci/run, after `npm run synth`), `npm test` runs the bundles' suites on the
 * bundles of cdk.out too, beside the others (bundleProjects, as `npm run test:bundles` runs them),
 * and leaves out of the sources' projects the ones whose every test runs there: CI runs each of
 * their tests once, on what is deployed. A suite with a test the bundles skip (`skipIf(BUNDLES)`)
 * runs in both.
 */
const WITH_BUNDLES = process.env.WITH_BUNDLES === '1';
const LEFT_TO_BUNDLES = WITH_BUNDLES
  ? BUNDLE_SUITES.filter((file) => file.startsWith('test/api/') && !readFileSync(new URL(file, import.meta.url), 'utf8').includes('skipIf(BUNDLES)'))
  : [];

/**
 * The bundles' projects (vitest.bundles.config.ts, and `npm test` with WITH_BUNDLES=1): their
 * suites with the settings of `npm test`'s connected ones, against the bundles of cdk.out
 * (API_TARGET=bundles), TEST_WORKERS at a time; then, in a group of its own once they are all
 * done (`coverageGroup`), what their bundles answered, route by route.
 */
export function bundleProjects(coverageGroup: number) {
  const env = { ...SHARED_TEST_SETTINGS.env, API_TARGET: 'bundles' };
  return [
    {
      test: {
        ...SHARED_TEST_SETTINGS,
        name: 'bundles',
        include: BUNDLE_SUITES,
        isolate: false,
        maxWorkers: TEST_WORKERS,
        sequence: { groupOrder: 0 },
        ...CONNECTED_SETUP,
        env,
      },
    },
    {
      test: {
        ...SHARED_TEST_SETTINGS,
        name: 'bundles-coverage',
        include: ['test/bundles/coverage.test.ts'],
        maxWorkers: 1,
        sequence: { groupOrder: coverageGroup },
        env,
      },
    },
  ];
}

// Four projects: `unit`, `api` and `api-fresh` together, TEST_WORKERS files at a time, then
// `api-alone`, one file at a time; with WITH_BUNDLES=1, `bundles` beside the first three and
// `bundles-coverage` last. `npm test` runs `api-alone` in a run of its own, beside the others
// (scripts/test.ts). `npm run test:unit` runs the `unit` project alone: no database, no server, no
// Java.
export default defineConfig({
  test: {
    // Within a group, project by project, each project's files longest first (test/support/sequencer.ts).
    sequence: { sequencer: LongestFirst },
    projects: [
      {
        test: {
          ...SHARED_TEST_SETTINGS,
          name: 'unit',
          include: ['test/unit/**/*.test.ts', ...OFFLINE_INFRA_SUITES],
          exclude: [...configDefaults.exclude, ...FRESH_PROCESS_SUITES],
          isolate: false,
          maxWorkers: TEST_WORKERS,
          sequence: { groupOrder: 0 },
        },
      },
      {
        test: {
          ...SHARED_TEST_SETTINGS,
          name: 'api',
          // Each file with its own database in the run's DynamoDB Local, its own tables, local
          // gateway and stream poller (test/support/dynamodb-local.ts, api.ts), one file after
          // another in each test process.
          include: ['test/api/**/*.test.ts', 'test/infra/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...OFFLINE_INFRA_SUITES, ...ALONE_SUITES, ...LEFT_TO_BUNDLES, ...FRESH_PROCESS_SUITES],
          isolate: false,
          maxWorkers: TEST_WORKERS,
          sequence: { groupOrder: 0 },
          ...CONNECTED_SETUP,
        },
      },
      {
        test: {
          ...SHARED_TEST_SETTINGS,
          name: 'api-fresh',
          include: FRESH_PROCESS_SUITES.filter((file) => !ALONE_SUITES.includes(file) && !LEFT_TO_BUNDLES.includes(file)),
          maxWorkers: TEST_WORKERS,
          sequence: { groupOrder: 0 },
          ...CONNECTED_SETUP,
        },
      },
      {
        test: {
          ...SHARED_TEST_SETTINGS,
          name: 'api-alone',
          include: ALONE_SUITES,
          // One at a time, on an otherwise quiet machine: after the projects above in one run;
          // in a run of its own at a higher priority than theirs under `npm test`.
          maxWorkers: 1,
          fileParallelism: false,
          sequence: { groupOrder: 1 },
          ...CONNECTED_SETUP,
        },
      },
      ...(WITH_BUNDLES ? bundleProjects(2) : []),
    ],
  },
});
