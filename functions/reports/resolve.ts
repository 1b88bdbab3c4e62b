import { endpoint } from '#lib/http/endpoint.ts';
import { ok } from '#lib/http/respond.ts';
import { resolveReads, resolveReport } from '#lib/reports/resolve.ts';

/** POST /reports/detail/{id}/resolve: a moderator closes the open reports of the report's target. */
export const handler = endpoint({
  auth: 'token',
  reads: ({ path }) => resolveReads(path.id),
  handler: async ({ caller, path, body, read }) => ok(await resolveReport(caller, path.id, body, read)),
});
