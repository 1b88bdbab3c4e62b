import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// A stand-in for the site's build (web/dist) in a temporary folder, for the stack's tests: the
// files the distribution's SPA function must know, without building the site.

/** The files of the stand-in, by path under the folder. */
export const SITE_BUILD_FILES: Readonly<Record<string, string>> = {
  'index.html':
    '<!doctype html><html lang="en"><head><title>Community</title><script type="module" src="/assets/app-123.js"></script></head><body></body></html>',
  'robots.txt': 'User-agent: *\nAllow: /\n',
  'favicon.svg': '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><rect width="16" height="16"/></svg>',
  'assets/app-123.js': 'console.log("app");\n',
};

/** Writes the stand-in into a new temporary folder and returns the folder (the caller removes it). */
export function siteBuildFixture(): string {
  const folder = mkdtempSync(join(tmpdir(), 'community-posts-site-'));
  for (const [name, content] of Object.entries(SITE_BUILD_FILES)) {
    mkdirSync(join(folder, name, '..'), { recursive: true });
    writeFileSync(join(folder, name), content);
  }
  return folder;
}

/**
 * The functions CDK adds to the stack for the site, run at deploy time and not for the API:
 * BucketDeployment's copy of the build into the bucket, and the bucket's emptying when the stack
 * goes. The stack's tests of the API's functions leave them out (test/infra/site.test.ts checks them).
 */
export const isDeployTimeFunction = (logicalId: string): boolean => /^Custom(CDKBucketDeployment|S3AutoDeleteObjects)/.test(logicalId);
