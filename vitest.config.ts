import { configDefaults, defineConfig } from 'vitest/config';

/** What every run shares: the two projects below and the bundles' run (vitest.bundles.config.ts). */
export const SHARED_TEST_SETTINGS = {
  pool: 'forks' as const,
  testTimeout: 60_000,
  hookTimeout: 120_000,
  env: { LOG_LEVEL: 'error', AWS_REGION: 'us-east-1', AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
};

/** What the suites that reach a table need: a DynamoDB Local (Java) of their own, per file. */
export const CONNECTED_SETUP = { globalSetup: ['test/support/global-setup.ts'], setupFiles: ['test/support/dynamodb-local.ts'] };

/** The stack's tests that need no DynamoDB Local (the others run bundles against it). */
const OFFLINE_INFRA_SUITES = ['test/infra/settings.test.ts', 'test/infra/monitoring.test.ts', 'test/infra/site.test.ts', 'test/infra/environment.test.ts'];

// `npm test` runs both projects. `npm run test:unit` runs the `unit` project alone: no database,
// no server, no Java.
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          ...SHARED_TEST_SETTINGS,
          name: 'unit',
          include: ['test/unit/**/*.test.ts', ...OFFLINE_INFRA_SUITES],
        },
      },
      {
        test: {
          ...SHARED_TEST_SETTINGS,
          name: 'api',
          // One connected suite at a time, each with a DynamoDB Local of its own, so the
          // concurrency and fault suites measure their own bursts, not another suite's.
          fileParallelism: false,
          include: ['test/api/**/*.test.ts', 'test/infra/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...OFFLINE_INFRA_SUITES],
          ...CONNECTED_SETUP,
        },
      },
    ],
  },
});
