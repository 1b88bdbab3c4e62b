import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { VIEWER_HOST_HEADER } from '#lib/http/request.ts';
import { DISTRIBUTION_DOMAIN_HEADER } from '#lib/site/origin.ts';

// What the distribution knows of the site's build at synth time (its files, one behaviour each to
// the bucket), and the code of its two CloudFront Functions (cloudfront-js-2.0): the pages' one,
// which hands the page function the distribution's domain, and the `/api/*` one, which hands the
// viewer's host to the API. Pure text, so the tests run it.

/** The folder of Vite's hashed, never-changing files: a path under it is always a file. */
export const HASHED_ASSETS_FOLDER = 'assets';

/** CloudFront's limit on a function's code. */
export const FUNCTION_CODE_LIMIT = 10_240;

export class SiteBuildError extends Error {
  override name = 'SiteBuildError';
}

/** The command that builds the site into its asset folder (web/dist). */
export const BUILD_COMMAND = 'npm run build:web';

/** Refuses a folder without an index.html: the site's build has not run. */
export function requireSiteBuild(folder: string): void {
  if (!existsSync(join(folder, 'index.html'))) {
    throw new SiteBuildError(`The site's build is missing: ${folder} has no index.html. Run \`${BUILD_COMMAND}\` first (npm run synth needs it).`);
  }
}

/** The server-side build of the site (web/dist-server): the renderer and the page template the page function reads. */
export const SERVER_BUILD_FILES = ['render.mjs', 'index.html'] as const;

/** Refuses a server build folder without the renderer or the page template. */
export function requireServerBuild(folder: string): void {
  const missing = SERVER_BUILD_FILES.filter((file) => !existsSync(join(folder, file)));
  if (missing.length > 0) {
    throw new SiteBuildError(
      `The site's server build is missing: ${folder} has no ${missing.join(' or ')}. Run \`${BUILD_COMMAND}\` first (npm run synth needs it).`,
    );
  }
}

/** Every file of a folder, as paths relative to it with `/` between folders, sorted. */
export function filesUnder(folder: string): string[] {
  const files: string[] = [];
  const walk = (directory: string) => {
    for (const entry of readdirSync(directory).sort()) {
      const path = join(directory, entry);
      if (statSync(path).isDirectory()) walk(path);
      else files.push(relative(folder, path).split(sep).join('/'));
    }
  };
  walk(folder);
  return files;
}

/**
 * The site's files as URL paths (`/index.html`, `/robots.txt`), the hashed assets folder left
 * out (a prefix covers it). Refuses a folder without an index.html.
 */
export function siteFiles(folder: string): string[] {
  requireSiteBuild(folder);
  const files: string[] = [];
  const walk = (directory: string) => {
    for (const entry of readdirSync(directory).sort()) {
      const path = join(directory, entry);
      const name = relative(folder, path).split(sep).join('/');
      if (name === HASHED_ASSETS_FOLDER) continue;
      if (statSync(path).isDirectory()) walk(path);
      else files.push(`/${name}`);
    }
  };
  walk(folder);
  return files;
}

/** The build's files the page function answers instead of the bucket: the app's template and the generated robots.txt. */
export const NOT_SERVED_FROM_BUILD = ['/index.html', '/robots.txt'] as const;

/** CloudFront's quota of cache behaviours per distribution (the default one not counted). */
export const BEHAVIOR_LIMIT = 25;

/** The characters CloudFront takes in a path pattern (`*` and `?` are its wildcards, so not as themselves). */
const PATH_PATTERN = /^\/[A-Za-z0-9_.$/~"'@:+&-]+$/;

/**
 * The path patterns of the build's files, each its own behaviour to the bucket: `/assets/*` for
 * the hashed folder, then every other file but those the page function answers. `others` is the
 * number of behaviours the distribution has besides (`/api/*`): past CloudFront's quota, or with a
 * name a path pattern cannot hold, the synth stops here.
 */
export function buildFilePatterns(files: readonly string[], hashedAssets: boolean, others: number): string[] {
  const patterns = [
    ...(hashedAssets ? [`/${HASHED_ASSETS_FOLDER}/*`] : []),
    ...files.filter((file) => !(NOT_SERVED_FROM_BUILD as readonly string[]).includes(file)),
  ];
  const unfit = patterns.find((pattern) => !pattern.endsWith('/*') && !PATH_PATTERN.test(pattern));
  if (unfit)
    throw new SiteBuildError(`The site's file ${JSON.stringify(unfit)} cannot be a CloudFront path pattern: rename it with letters, digits and - _ . only.`);
  if (patterns.length + others > BEHAVIOR_LIMIT) {
    throw new SiteBuildError(
      `The site's build has ${patterns.length} files outside /${HASHED_ASSETS_FOLDER}/ and index.html (${patterns.join(', ')}): with ${others} other behaviour(s), ` +
        `the distribution would need ${patterns.length + others} cache behaviours, over CloudFront's ${BEHAVIOR_LIMIT}. Move files under web/public/${HASHED_ASSETS_FOLDER}/ or drop some.`,
    );
  }
  return patterns;
}

/** Whether the build has the hashed assets folder. */
export function hasHashedAssets(folder: string): boolean {
  return existsSync(join(folder, HASHED_ASSETS_FOLDER));
}

function checkSize(code: string, what: string): string {
  if (Buffer.byteLength(code) > FUNCTION_CODE_LIMIT) {
    throw new SiteBuildError(`The ${what} function's code is ${Buffer.byteLength(code)} bytes, over CloudFront's ${FUNCTION_CODE_LIMIT}.`);
  }
  return code;
}

/**
 * Viewer request of the pages (the default behaviour, to the page function): the distribution's
 * own domain name, from CloudFront's context, under DISTRIBUTION_DOMAIN_HEADER, replacing any value
 * the viewer sent under that name: the page function's origin when the settings name none.
 */
export function distributionDomainCode(): string {
  const header = JSON.stringify(DISTRIBUTION_DOMAIN_HEADER);
  return checkSize(
    [
      'function handler(event) {',
      '  var request = event.request;',
      `  request.headers[${header}] = { value: event.context.distributionDomainName };`,
      '  return request;',
      '}',
    ].join('\n'),
    'distribution domain',
  );
}

/**
 * Viewer request of `/api/*`: the viewer's Host under VIEWER_HOST_HEADER, replacing any value the
 * client sent under that name, so the API's links name the site's host and never one a client chose.
 */
export function viewerHostCode(): string {
  const header = JSON.stringify(VIEWER_HOST_HEADER);
  return checkSize(
    [
      'function handler(event) {',
      '  var request = event.request;',
      '  var host = request.headers.host;',
      `  delete request.headers[${header}];`,
      `  if (host && host.value) request.headers[${header}] = { value: host.value };`,
      '  return request;',
      '}',
    ].join('\n'),
    'viewer host',
  );
}
