import { commentHeadReads, findComment } from '#lib/comments/detail.ts';
import { commentToApi } from '#lib/comments/view.ts';
import { endpoint } from '#lib/http/endpoint.ts';
import { ok } from '#lib/http/respond.ts';

/** GET /comments/detail/{id}: one comment, as the caller may see it. */
export const handler = endpoint({
  auth: 'public-read',
  reads: ({ path }) => commentHeadReads(path.id),
  handler: async ({ caller, path, read }) => {
    const { comment, post } = await findComment(path.id, read, caller);
    return ok(commentToApi(comment, post, caller));
  },
});
