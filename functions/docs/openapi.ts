import { endpoint } from '#lib/http/endpoint.ts';
import { ok } from '#lib/http/respond.ts';
import { openApiDocument, serverUrlOf } from '#lib/openapi/document.ts';

/** GET /openapi.json: the OpenAPI 3.1 document, with this host as its server. No token needed. */
export const handler = endpoint({
  auth: 'none',
  parseBody: false,
  handler: async ({ event }) => ok(openApiDocument(serverUrlOf(event)), { 'Cache-Control': 'no-cache' }),
});
