import { fileURLToPath } from 'node:url';
import { readTemplate } from '../../scripts/local/template-deployment.ts';
import { ensureSite } from '../../scripts/web/site-build.ts';

// Once per run, before any connected suite: the bundles' run needs what `npm run synth` writes, so
// say so at once, not in every file. The site (web/dist) is built when missing or stale, so the
// suites that serve it, `npm start` and the stack's synth find it current. DynamoDB Local is
// started per file (dynamodb-local.ts).

export default function setup(): void {
  if (process.env.API_TARGET === 'bundles') readTemplate(process.env.CDK_OUT ?? 'cdk.out', 'CommunityPosts');
  ensureSite(fileURLToPath(new URL('../..', import.meta.url)), (reason) => console.log(`Building the site into web/dist (${reason}) ...`));
}
