import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

// The interactive reference at GET /api/v1/docs: Swagger UI from the npm package swagger-ui-dist,
// served by the API itself (no CDN). The page loads its assets from GET /api/v1/docs/{asset} and
// the document from GET /api/v1/openapi.json, all relative to the page, so it works on any host.

/** Files taken from swagger-ui-dist; the CDK stack copies exactly these next to the bundle. */
export const SWAGGER_UI_FILES = ['swagger-ui.css', 'swagger-ui-bundle.js', 'favicon-32x32.png', 'favicon-16x16.png'] as const;

/** Folder, next to the deployed bundle's index.mjs, that holds the copied files. */
export const BUNDLED_ASSET_FOLDER = 'swagger-ui';

/** Every asset name GET /docs/{asset} answers, with its Content-Type. */
export const DOCS_ASSETS = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
  'favicon-16x16.png': 'image/png',
  'init.js': 'text/javascript; charset=utf-8',
} as const;

export type DocsAssetName = keyof typeof DOCS_ASSETS;

export function isDocsAsset(name: string): name is DocsAssetName {
  return Object.prototype.hasOwnProperty.call(DOCS_ASSETS, name);
}

/** The swagger-ui-dist folder of the installed package (local runs, tests, and the CDK synth). */
export function swaggerUiDistDirectory(): string {
  const require = createRequire(import.meta.url);
  return dirname(require.resolve('swagger-ui-dist/package.json'));
}

/** Where the files are: beside the deployed bundle, else in node_modules. */
function assetDirectory(): string {
  const bundled = join(dirname(fileURLToPath(import.meta.url)), BUNDLED_ASSET_FOLDER);
  return existsSync(join(bundled, SWAGGER_UI_FILES[0])) ? bundled : swaggerUiDistDirectory();
}

/** Configures Swagger UI: same-origin requests, `Token <value>` authorization, login authorizes. */
const INIT_SCRIPT = `'use strict';
window.addEventListener('load', function () {
  var ui = SwaggerUIBundle({
    url: 'openapi.json',
    dom_id: '#swagger-ui',
    deepLinking: true,
    persistAuthorization: true,
    displayRequestDuration: true,
    validatorUrl: null,
    presets: [SwaggerUIBundle.presets.apis],
    layout: 'BaseLayout',
    // "Authorize" takes \`Token <value>\`; a bare 40-hex token is given its keyword.
    requestInterceptor: function (request) {
      var headers = request.headers || {};
      var value = headers.Authorization;
      if (typeof value === 'string' && /^[0-9a-f]{40}$/.test(value.trim())) headers.Authorization = 'Token ' + value.trim();
      return request;
    },
    // A successful POST /login tried out on this page authorizes the page with its token.
    responseInterceptor: function (response) {
      try {
        var path = new URL(response.url, window.location.href).pathname;
        var token = response.body && response.body.token;
        if (response.ok && /\\/login$/.test(path) && typeof token === 'string') ui.preauthorizeApiKey('tokenAuth', 'Token ' + token);
      } catch (error) {
        console.warn('could not authorize from the login response', error);
      }
      return response;
    },
  });
  window.ui = ui;
});
`;

const PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Community Posts API v1 – interactive reference</title>
  <link rel="stylesheet" href="docs/swagger-ui.css">
  <link rel="icon" type="image/png" href="docs/favicon-32x32.png" sizes="32x32">
  <link rel="icon" type="image/png" href="docs/favicon-16x16.png" sizes="16x16">
</head>
<body>
  <div id="swagger-ui"></div>
  <noscript>This page needs JavaScript. The API is described by <a href="openapi.json">openapi.json</a>.</noscript>
  <script src="docs/swagger-ui-bundle.js"></script>
  <script src="docs/init.js"></script>
</body>
</html>
`;

/** Only our own scripts and styles, requests to this origin, no framing. */
export const DOCS_PAGE_HEADERS: Record<string, string> = {
  'Content-Type': 'text/html; charset=utf-8',
  'Cache-Control': 'no-cache',
  'Content-Security-Policy':
    "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; " +
    "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
};

export function docsPage(): string {
  return PAGE;
}

export interface DocsAsset {
  contentType: string;
  /** The asset's bytes. */
  data: Buffer;
  /** Compressible (text) assets are sent gzipped to clients that accept it. */
  text: boolean;
}

const loaded = new Map<DocsAssetName, DocsAsset>();
const gzipped = new Map<DocsAssetName, Buffer>();

export function docsAsset(name: DocsAssetName): DocsAsset {
  let asset = loaded.get(name);
  if (!asset) {
    const contentType = DOCS_ASSETS[name];
    const data = name === 'init.js' ? Buffer.from(INIT_SCRIPT, 'utf8') : readFileSync(join(assetDirectory(), name));
    asset = { contentType, data, text: !contentType.startsWith('image/') };
    loaded.set(name, asset);
  }
  return asset;
}

/** The gzip of a text asset, made once per process. */
export function gzippedAsset(name: DocsAssetName): Buffer {
  let zipped = gzipped.get(name);
  if (!zipped) {
    zipped = gzipSync(docsAsset(name).data, { level: 9 });
    gzipped.set(name, zipped);
  }
  return zipped;
}
