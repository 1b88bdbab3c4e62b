import { endpoint } from '#lib/http/endpoint.ts';
import { created, ok } from '#lib/http/respond.ts';
import { postReads } from '#lib/posts/detail.ts';
import { filePostReport } from '#lib/reports/file.ts';

/** POST /posts/detail/{slug}/report: reports a post (201), or answers the caller's report on it (200). */
export const handler = endpoint({
  auth: 'token',
  reads: ({ path }) => postReads(path.slug ?? ''),
  handler: async ({ caller, path, body, read }) => {
    const filed = await filePostReport(caller, path.slug ?? '', body, read);
    return filed.created ? created(filed.report) : ok(filed.report);
  },
});
