// The bundles' suites (vitest.bundles.config.ts), read by both configurations: `npm run
// test:bundles` runs them on the bundles, and with WITH_BUNDLES=1 `npm test` runs them there too
// and leaves to them the ones that run whole there (vitest.config.ts).

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
