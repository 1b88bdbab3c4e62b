import { readTemplate } from '../../scripts/local/template-deployment.ts';

// Once per run, before any connected suite: the bundles' run needs what `npm run synth` writes, so
// say so at once, not in every file. DynamoDB Local is started per file (dynamodb-local.ts).

export default function setup(): void {
  if (process.env.API_TARGET === 'bundles') readTemplate(process.env.CDK_OUT ?? 'cdk.out', 'CommunityPosts');
}
