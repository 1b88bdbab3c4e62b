import { commentHeadReads } from '#lib/comments/detail.ts';
import { endpoint } from '#lib/http/endpoint.ts';
import { created, ok } from '#lib/http/respond.ts';
import { fileCommentReport } from '#lib/reports/file.ts';

/** POST /comments/detail/{id}/report: reports a comment (201), or answers the caller's report on it (200). */
export const handler = endpoint({
  auth: 'token',
  reads: ({ path }) => commentHeadReads(path.id),
  handler: async ({ caller, path, body, read }) => {
    const filed = await fileCommentReport(caller, path.id, body, read);
    return filed.created ? created(filed.report) : ok(filed.report);
  },
});
