import { endpoint } from '#lib/http/endpoint.ts';
import { ok } from '#lib/http/respond.ts';
import { postReads } from '#lib/posts/detail.ts';
import { showPostReport } from '#lib/reports/file.ts';

/** GET /posts/detail/{slug}/report: the caller's report on a post they can see. */
export const handler = endpoint({
  auth: 'token',
  reads: ({ path }) => postReads(path.slug ?? ''),
  handler: async ({ caller, path, read }) => ok(await showPostReport(caller, path.slug ?? '', read)),
});
