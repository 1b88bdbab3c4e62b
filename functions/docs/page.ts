import { DOCS_PAGE_HEADERS, docsPage } from '#lib/docs/swagger-ui.ts';
import { endpoint } from '#lib/http/endpoint.ts';

/** GET /docs: the interactive reference (Swagger UI). No token needed. */
export const handler = endpoint({
  auth: 'none',
  parseBody: false,
  handler: async () => ({ status: 200, headers: DOCS_PAGE_HEADERS, raw: { data: docsPage() } }),
});
