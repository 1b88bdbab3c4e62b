import { defineConfig } from 'vitest/config';
import { bundleProjects } from './vitest.config.ts';
import LongestFirst from './test/support/sequencer.ts';

// `npm run test:bundles`: what the bundles of cdk.out can break that the sources' run cannot, against
// what `npm run synth` wrote, each function's bundle copied out of the repository and run in
// processes of its own (on LAMBDA_NODE, Lambda's Node.js 22, when set), behind the local gateway and
// the IAM guard with the routes, CORS settings, environment and role policies of the synthesized
// template. The behaviour of the handlers is the sources' run's (npm test): here, each suite is here
// for what only the bundles and the template decide (docs/testing.md, "The bundles' run"), and
// together they call every route of the template along its success and its error path, which
// test/bundles/coverage.test.ts checks last, from what every suite's bundles answered. CI runs the
// same projects within `npm test` (WITH_BUNDLES=1).

export default defineConfig({
  test: {
    sequence: { sequencer: LongestFirst },
    projects: bundleProjects(1),
  },
});
