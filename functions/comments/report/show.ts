import { commentHeadReads } from '#lib/comments/detail.ts';
import { endpoint } from '#lib/http/endpoint.ts';
import { ok } from '#lib/http/respond.ts';
import { showCommentReport } from '#lib/reports/file.ts';

/** GET /comments/detail/{id}/report: the caller's report on a comment they can see. */
export const handler = endpoint({
  auth: 'token',
  reads: ({ path }) => commentHeadReads(path.id),
  handler: async ({ caller, path, read }) => ok(await showCommentReport(caller, path.id, read)),
});
