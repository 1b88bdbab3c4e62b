import { freePort } from '../../scripts/local/free-port.ts';
import type { TestProject } from 'vitest/node';
import { startEmulator } from '../../scripts/local/dynamodb-local.ts';
import { readTemplate } from '../../scripts/local/template-deployment.ts';

// One DynamoDB Local, in memory, for the whole run; each test file makes its own table in it.

declare module 'vitest' {
  export interface ProvidedContext {
    dynamodbEndpoint: string;
  }
}


export default async function setup(project: TestProject) {
  // The bundles' run needs what `npm run synth` writes: say so at once, not in every file.
  if (process.env.API_TARGET === 'bundles') readTemplate(process.env.CDK_OUT ?? 'cdk.out', 'CommunityPosts');
  const emulator = await startEmulator({ port: await freePort() });
  project.provide('dynamodbEndpoint', emulator.endpoint);
  return async () => {
    await emulator.stop();
  };
}
