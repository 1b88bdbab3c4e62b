import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { startEmulator, type Emulator } from '../../scripts/local/dynamodb-local.ts';
import { readTemplate } from '../../scripts/local/template-deployment.ts';
import { ensureSite } from '../../scripts/web/site-build.ts';

// Once per run, before any connected suite: the bundles' run needs what `npm run synth` writes, so
// say so at once, not in every file; and its record of the routes its bundles answered starts
// empty. The site (web/dist) is built when missing or stale, so the suites that serve it, `npm
// start` and the stack's synth find it current.
//
// And the run's DynamoDB Local, one for every connected file, each file in a database of its own
// (dynamodb-local.ts): the JVM starts and compiles its code once, not once per file.

declare module 'vitest' {
  export interface ProvidedContext {
    /** The run's DynamoDB Local. */
    dynamodbEndpoint: string;
  }
}

/**
 * The emulator is the run's, not a project's: vitest runs this setup once per project that names
 * it (every connected project), in one process, and stops it after the last project's teardown.
 */
interface RunEmulator {
  started: Promise<Emulator>;
  users: number;
}
const RUN_EMULATOR = Symbol.for('community-posts.test-emulator');
const shared = globalThis as { [RUN_EMULATOR]?: RunEmulator };

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  if (project.config.env.API_TARGET === 'bundles') {
    readTemplate(process.env.CDK_OUT ?? 'cdk.out', 'CommunityPosts');
    // What the bundles answer is recorded anew for this run (test/bundles/coverage.test.ts reads it).
    rmSync(fileURLToPath(new URL('../../test-results/bundle-coverage/', import.meta.url)), { recursive: true, force: true });
  }
  ensureSite(fileURLToPath(new URL('../..', import.meta.url)), (reason) => console.log(`Building the site into web/dist (${reason}) ...`));

  // Without -sharedDb: a database per access key, so each file's tables and stream records are its
  // own. Port 0: one the system chooses as the emulator binds.
  const run = (shared[RUN_EMULATOR] ??= { started: startEmulator({ port: 0, forTests: true, sharedDb: false }), users: 0 });
  run.users += 1;
  project.provide('dynamodbEndpoint', (await run.started).endpoint);
  return async () => {
    run.users -= 1;
    if (run.users > 0) return;
    delete shared[RUN_EMULATOR];
    await (await run.started).stop();
  };
}
