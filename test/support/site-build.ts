import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// A stand-in for the site's build (web/dist) in a temporary folder, for the stack's tests: the
// files the distribution gives a behaviour each, without building the site; and beside it the
// stand-in of its server build (web/dist-server), which the page function's bundle carries.

/** The files of the stand-in, by path under the folder. */
export const SITE_BUILD_FILES: Readonly<Record<string, string>> = {
  'index.html':
    '<!doctype html><html lang="en"><head><title>Community</title><script type="module" src="/assets/app-123.js"></script></head><body></body></html>',
  'robots.txt': 'User-agent: *\nAllow: /\n',
  'favicon.svg': '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><rect width="16" height="16"/></svg>',
  'assets/app-123.js': 'console.log("app");\n',
};

/** The files of the server build's stand-in (infra/site-functions.ts SERVER_BUILD_FILES, and a chunk in a subfolder). */
export const SERVER_BUILD_FILES: Readonly<Record<string, string>> = {
  'render.mjs': 'export function render() { return ""; }\n',
  'index.html': SITE_BUILD_FILES['index.html']!,
  'chunks/app-456.mjs': 'export const app = 1;\n',
};

function write(folder: string, files: Readonly<Record<string, string>>): void {
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(join(folder, name, '..'), { recursive: true });
    writeFileSync(join(folder, name), content);
  }
}

/**
 * Writes the stand-in into a new temporary folder and returns the folder (the caller removes
 * it); its server build goes beside it (`<folder>-server`, as web/dist-server beside web/dist),
 * removed when the process exits.
 */
export function siteBuildFixture(): string {
  const folder = mkdtempSync(join(tmpdir(), 'community-posts-site-'));
  write(folder, SITE_BUILD_FILES);
  const server = `${folder}-server`;
  write(server, SERVER_BUILD_FILES);
  process.once('exit', () => rmSync(server, { recursive: true, force: true }));
  return folder;
}

/**
 * The functions CDK adds to the stack for the site, run at deploy time and not for the API:
 * BucketDeployment's copy of the build into the bucket, and the bucket's emptying when the stack
 * goes. The stack's tests of the API's functions leave them out (test/infra/site.test.ts checks them).
 */
export const isDeployTimeFunction = (logicalId: string): boolean => /^Custom(CDKBucketDeployment|S3AutoDeleteObjects)/.test(logicalId);
