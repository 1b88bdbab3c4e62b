import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { readTemplate } from '../../scripts/local/template-deployment.ts';
import { ensureSite } from '../../scripts/web/site-build.ts';

// Once per run, before any connected suite: the bundles' run needs what `npm run synth` writes, so
// say so at once, not in every file; and its record of the routes its bundles answered starts
// empty. The site (web/dist) is built when missing or stale, so the suites that serve it, `npm
// start` and the stack's synth find it current. DynamoDB Local is started per file (dynamodb-local.ts).

export default function setup(): void {
  if (process.env.API_TARGET === 'bundles') {
    readTemplate(process.env.CDK_OUT ?? 'cdk.out', 'CommunityPosts');
    // What the bundles answer is recorded anew for this run (test/bundles/coverage.test.ts reads it).
    rmSync(fileURLToPath(new URL('../../test-results/bundle-coverage/', import.meta.url)), { recursive: true, force: true });
  }
  ensureSite(fileURLToPath(new URL('../..', import.meta.url)), (reason) => console.log(`Building the site into web/dist (${reason}) ...`));
}
