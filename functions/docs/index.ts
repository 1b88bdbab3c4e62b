import { apiIndex } from '#lib/openapi/api-index.ts';
import { endpoint } from '#lib/http/endpoint.ts';
import { ok } from '#lib/http/respond.ts';
import { serverUrlOf } from '#lib/openapi/document.ts';

/** GET /api/v1: links to the docs page and the OpenAPI document, and the list of endpoints. No token needed. */
export const handler = endpoint({
  auth: 'none',
  parseBody: false,
  handler: async ({ event }) => ok(apiIndex(serverUrlOf(event)), { 'Cache-Control': 'no-cache' }),
});
