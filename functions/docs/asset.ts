import { docsAsset, gzippedAsset, isDocsAsset } from '#lib/docs/swagger-ui.ts';
import { NotFound } from '#lib/errors.ts';
import { endpoint } from '#lib/http/endpoint.ts';

/** GET /docs/{asset}: a stylesheet, script or icon of the docs page. No token needed. */
export const handler = endpoint({
  auth: 'none',
  parseBody: false,
  handler: async ({ event, path }) => {
    const name = path.asset ?? '';
    if (!isDocsAsset(name)) throw new NotFound();
    const asset = docsAsset(name);
    const headers: Record<string, string> = {
      'Content-Type': asset.contentType,
      // init.js is this project's code; the others change only with the swagger-ui-dist version.
      'Cache-Control': name === 'init.js' ? 'no-cache' : 'public, max-age=86400',
      'X-Content-Type-Options': 'nosniff',
    };
    if (asset.text) headers.Vary = 'Accept-Encoding';
    const acceptsGzip = /\bgzip\b/i.test(event.headers?.['accept-encoding'] ?? '');
    if (asset.text && acceptsGzip) {
      headers['Content-Encoding'] = 'gzip';
      return { status: 200, headers, raw: { data: gzippedAsset(name).toString('base64'), isBase64Encoded: true } };
    }
    if (asset.text) return { status: 200, headers, raw: { data: asset.data.toString('utf8') } };
    return { status: 200, headers, raw: { data: asset.data.toString('base64'), isBase64Encoded: true } };
  },
});
