import { defineConfig } from 'vitest/config';
import { CONNECTED_SETUP, SHARED_TEST_SETTINGS, TEST_WORKERS } from './vitest.config.ts';
import LongestFirst from './test/support/sequencer.ts';
import { BUNDLE_SUITES } from './test/support/bundle-suites.ts';

// `npm run test:bundles`: what the bundles of cdk.out can break that the sources' run cannot, against
// what `npm run synth` wrote, each function's bundle copied out of the repository and run in
// processes of its own (on LAMBDA_NODE, Lambda's Node.js 22, when set), behind the local gateway and
// the IAM guard with the routes, CORS settings, environment and role policies of the synthesized
// template. The behaviour of the handlers is the sources' run's (npm test): here, each suite is here
// for what only the bundles and the template decide (docs/testing.md, "The bundles' run"), and
// together they call every route of the template along its success and its error path, which
// test/bundles/coverage.test.ts checks last, from what every suite's bundles answered.

export default defineConfig({
  test: {
    sequence: { sequencer: LongestFirst },
    projects: [
      {
        // The settings of `npm test` (not its projects): these suites, TEST_WORKERS at a time, each
        // with its own database in the run's DynamoDB Local, one after another in a test process.
        test: {
          ...SHARED_TEST_SETTINGS,
          name: 'bundles',
          include: BUNDLE_SUITES,
          isolate: false,
          maxWorkers: TEST_WORKERS,
          sequence: { groupOrder: 0 },
          ...CONNECTED_SETUP,
          env: { ...SHARED_TEST_SETTINGS.env, API_TARGET: 'bundles' },
        },
      },
      {
        // After them all: what their bundles answered, route by route.
        test: {
          ...SHARED_TEST_SETTINGS,
          name: 'bundles-coverage',
          include: ['test/bundles/coverage.test.ts'],
          maxWorkers: 1,
          sequence: { groupOrder: 1 },
          env: { ...SHARED_TEST_SETTINGS.env, API_TARGET: 'bundles' },
        },
      },
    ],
  },
});
