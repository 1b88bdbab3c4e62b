import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { VIEWER_HOST_HEADER } from '#lib/http/request.ts';

// The code of the distribution's two CloudFront Functions (cloudfront-js-2.0), written at synth
// time: the site's SPA fallback, which knows the site's files from the build's listing, and the
// `/api/*` function that hands the viewer's host to the API. Pure text, so the tests run it.

/** The folder of Vite's hashed, never-changing files: a path under it is always a file. */
export const HASHED_ASSETS_FOLDER = 'assets';

/** The page every path that is not one of the site's files gets: the app routes it in the browser. */
export const APP_PAGE = '/index.html';

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

/** Whether the build has the hashed assets folder. */
export function hasHashedAssets(folder: string): boolean {
  return existsSync(join(folder, HASHED_ASSETS_FOLDER));
}

function checkSize(code: string, what: string): string {
  if (Buffer.byteLength(code) > FUNCTION_CODE_LIMIT) {
    throw new SiteBuildError(
      `The ${what} function's code is ${Buffer.byteLength(code)} bytes, over CloudFront's ${FUNCTION_CODE_LIMIT}: the site has too many files outside /${HASHED_ASSETS_FOLDER}/.`,
    );
  }
  return code;
}

/**
 * Viewer request of the site's behaviour: a path that is one of the site's files goes to S3 as
 * it is; any other path (`/posts/x`, `/users/john.doe`, `/`) gets the app's page. No rule on dots
 * or extensions: a username may hold a dot. The keys all start with `/`, so no inherited property
 * of an object can match.
 */
export function spaFallbackCode(files: readonly string[], hashedAssets: boolean): string {
  // As the viewer sent it: a name with a space or a non-ASCII letter arrives percent-encoded.
  const known = Object.fromEntries(files.flatMap((file) => [...new Set([file, encodeURI(file)])].map((uri) => [uri, true])));
  const prefix = hashedAssets ? `/${HASHED_ASSETS_FOLDER}/` : '';
  return checkSize(
    [
      `var FILES = ${JSON.stringify(known)};`,
      `var ASSETS = ${JSON.stringify(prefix)};`,
      'function handler(event) {',
      '  var request = event.request;',
      '  var uri = request.uri;',
      '  if (FILES[uri] === true || (ASSETS !== "" && uri.indexOf(ASSETS) === 0)) return request;',
      `  request.uri = ${JSON.stringify(APP_PAGE)};`,
      '  return request;',
      '}',
    ].join('\n'),
    'SPA fallback',
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
