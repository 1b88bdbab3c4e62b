import { defineConfig } from 'vitest/config';
import { CONNECTED_SETUP, SHARED_TEST_SETTINGS, TEST_WORKERS } from './vitest.config.ts';
import LongestFirst from './test/support/sequencer.ts';

// `npm run test:bundles`: what the bundles of cdk.out can break that the sources' run cannot, against
// what `npm run synth` wrote, each function's bundle copied out of the repository and run in
// processes of its own (on LAMBDA_NODE, Lambda's Node.js 22, when set), behind the local gateway and
// the IAM guard with the routes, CORS settings, environment and role policies of the synthesized
// template. The behaviour of the handlers is the sources' run's (npm test): here, each suite is here
// for what only the bundles and the template decide (docs/testing.md, "The bundles' run"), and
// together they call every route of the template along its success and its error path, which
// test/bundles/coverage.test.ts checks last, from what every suite's bundles answered.
export const BUNDLE_SUITES = [
  // Every route on its bundle, success and error (the examples of the OpenAPI document, in order,
  // and its documented refusals); the docs page's assets, copied beside the docs/asset bundle.
  'test/api/openapi.test.ts',
  // Each function's role against its calls: the template's policies, refused where they lack a grant.
  'test/api/iam.test.ts',
  // The template's routes (HEAD, $default, trailing slash, encoded slashes), CORS settings and limits.
  'test/api/gateway.test.ts',
  'test/api/http.test.ts',
  // The template's stream mapping and event filter, and the consumer's bundle under its role.
  'test/api/streams.test.ts',
  // The template's environment: the cursor secret, public reads off (its default) and on.
  'test/api/public-reads.test.ts',
  // The common-passwords list copied beside the sign-up and password bundles.
  'test/api/signup.test.ts',
  'test/api/password-change.test.ts',
  // A DynamoDB Local without -sharedDb: the bundles sign with their roles' keys.
  'test/api/unshared-dynamodb-local.test.ts',
  // A browser on another origin against the template's CORS settings; the docs page from its bundles.
  'test/api/browser.test.ts',
  // The routes the suites above leave without a success or an error (coverage.test.ts).
  'test/api/smoke.test.ts',
  'test/api/security/authorization.test.ts',
  // No bundle holds the tests' clock mover; a bundle's clock is the system's.
  'test/bundles/clock.test.ts',
  // The error paths the suites above leave out (GET /feed's 404).
  'test/bundles/routes.test.ts',
];

export default defineConfig({
  test: {
    sequence: { sequencer: LongestFirst },
    projects: [
      {
        // The settings of `npm test` (not its projects): these suites, TEST_WORKERS at a time, each
        // with its own DynamoDB Local.
        test: {
          ...SHARED_TEST_SETTINGS,
          name: 'bundles',
          include: BUNDLE_SUITES,
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
