import { defineConfig } from 'vitest/config';
import { CONNECTED_SETUP, SHARED_TEST_SETTINGS } from './vitest.config.ts';

// `npm run test:bundles`: the API suites against what `npm run synth` wrote to cdk.out, each
// function's bundle copied out of the repository and run in processes of its own (on LAMBDA_NODE,
// Lambda's Node.js 22, when set), behind the local gateway and the IAM guard with the routes, CORS
// settings, environment and role policies of the synthesized template. Together these suites call
// every route along its success and error paths, and the stream consumer through the stream poller
// with the template's event source mapping; the suites left out observe the handlers from inside
// the process (DynamoDB call counts, injected faults, log lines).
export const BUNDLE_SUITES = [
  'test/api/smoke.test.ts',
  'test/api/auth.test.ts',
  'test/api/users.test.ts',
  'test/api/tags.test.ts',
  'test/api/posts.test.ts',
  'test/api/posts-list.test.ts',
  'test/api/posts-lists-v11.test.ts',
  'test/api/large-pages.test.ts',
  'test/api/http.test.ts',
  'test/api/gateway.test.ts',
  'test/api/iam.test.ts',
  'test/api/streams.test.ts',
  'test/api/openapi.test.ts',
  'test/api/concurrency.test.ts',
  'test/api/browser.test.ts',
  'test/api/security/authorization.test.ts',
  'test/api/signup.test.ts',
  'test/api/password-change.test.ts',
  'test/api/unshared-dynamodb-local.test.ts',
  // Public reads off (the template's default) and on (the functions' PUBLIC_READS set over it, as
  // `PUBLIC_READS=true npm start -- --bundles` does); caching and related posts.
  'test/api/public-reads.test.ts',
  'test/api/caching.test.ts',
  'test/api/related.test.ts',
  'test/api/summaries.test.ts',
  'test/api/search-index.test.ts',
];

export default defineConfig({
  // The settings of `npm test` (not its projects): these suites alone, with DynamoDB Local.
  test: {
    ...SHARED_TEST_SETTINGS,
    include: BUNDLE_SUITES,
    // As the sources' run: one connected suite at a time (vitest.config.ts).
    fileParallelism: false,
    ...CONNECTED_SETUP,
    env: { ...SHARED_TEST_SETTINGS.env, API_TARGET: 'bundles' },
  },
});
