import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { readTemplate } from '../../scripts/local/template-deployment.ts';
import { ensureSite } from '../../scripts/web/site-build.ts';
import { startEmulatorPool } from './emulator-pool.ts';

// Once per project of a run, before any connected suite: the bundles' run needs what `npm run
// synth` writes, so say so at once, not in every file; and its record of the routes its bundles
// answered starts empty. The site (web/dist) is built when missing or stale, so the suites that
// serve it, `npm start` and the stack's synth find it current. The DynamoDB Locals the project's
// files borrow (emulator-pool.ts) are started as files ask and stopped at the end.

declare module 'vitest' {
  export interface ProvidedContext {
    /** The URL of the run's emulator pool (emulator-pool.ts). */
    emulatorPool: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  if (process.env.API_TARGET === 'bundles') {
    readTemplate(process.env.CDK_OUT ?? 'cdk.out', 'CommunityPosts');
    // What the bundles answer is recorded anew for this run (test/bundles/coverage.test.ts reads it).
    rmSync(fileURLToPath(new URL('../../test-results/bundle-coverage/', import.meta.url)), { recursive: true, force: true });
  }
  ensureSite(fileURLToPath(new URL('../..', import.meta.url)), (reason) => console.log(`Building the site into web/dist (${reason}) ...`));
  // The suites that run alone measure their own timings: each on a fresh emulator, as they were
  // measured (vitest.config.ts, ALONE_SUITES).
  const pool = await startEmulatorPool(project.name === 'api-alone' ? { filesPerEmulator: 1 } : {});
  project.provide('emulatorPool', pool.url);
  return () => pool.close();
}
