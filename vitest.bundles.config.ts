import { defineConfig } from 'vitest/config';
import base from './vitest.config.ts';

// `npm run test:bundles`: the API suites against what `npm run synth` wrote to cdk.out, each
// function's bundle copied out of the repository and run in processes of its own (on LAMBDA_NODE,
// Lambda's Node.js 22, when set), behind the local gateway and the IAM guard with the routes, CORS
// settings, environment and role policies of the synthesized template. Together these suites call
// every route along its success and error paths; the suites left out observe the handlers from
// inside the process (DynamoDB call counts, injected faults, log lines).
export const BUNDLE_SUITES = [
  'test/smoke.test.ts',
  'test/auth.test.ts',
  'test/users.test.ts',
  'test/tags.test.ts',
  'test/posts.test.ts',
  'test/posts-list.test.ts',
  'test/large-pages.test.ts',
  'test/http.test.ts',
  'test/gateway.test.ts',
  'test/iam.test.ts',
  'test/openapi.test.ts',
  'test/concurrency.test.ts',
  'test/browser.test.ts',
  'test/security/authorization.test.ts',
];

export default defineConfig({
  test: {
    ...base.test,
    include: BUNDLE_SUITES,
    env: { ...base.test?.env, API_TARGET: 'bundles' },
  },
});
