import { endpoint } from '#lib/http/endpoint.ts';
import { pagedResult } from '#lib/http/paging.ts';
import { openReports } from '#lib/reports/list.ts';

/** GET /reports: for moderators, each target with open reports once, as its newest report, newest first. */
export const handler = endpoint({
  auth: 'token',
  validated: true,
  alongside: async ({ query, body }) => openReports(query, body),
  handler: async (request) => pagedResult(request, await request.alongside.read(request.caller), (report) => report),
});
