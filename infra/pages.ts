import { fileURLToPath } from 'node:url';

// The page function's names and numbers that the stack (infra/page-function.ts, infra/site.ts)
// and the local stack (scripts/local/) share. Free of the CDK, so the local server loads none of it.

/** The page function's handler module under functions/. */
export const PAGE_HANDLER = 'site/page';

/** The query parameters a page depends on (the lists' page, sort and search): the rest (`utm_*`) stays out of its cache key and never reaches the function. */
export const PAGE_QUERY_PARAMETERS = ['page', 'sort', 'q'] as const;

/** The longest CloudFront keeps a page: the function's s-maxage, min(publicCacheSeconds, 30), rules below it. */
export const PAGE_MAX_TTL_SECONDS = 30;

/** The site's server build (render.mjs, index.html), at the repository's root: web/dist-server. */
export const DEFAULT_SERVER_BUILD = fileURLToPath(new URL('../web/dist-server', import.meta.url));

/** The server build beside a site build folder: `web/dist` → `web/dist-server`. */
export const serverBuildBeside = (siteAssets: string): string => `${siteAssets.replace(/[/\\]+$/, '')}-server`;

/** Where the server build lands inside the function's bundle (next to index.mjs). */
export const BUNDLED_SITE_FOLDER = 'site';

/**
 * The variable that names the server build's folder where it is not the bundle's own `site/`:
 * the local stack sets it when it runs the handler from source (scripts/local/server.ts).
 */
export const SITE_BUILD_DIR_VARIABLE = 'SITE_BUILD_DIR';
