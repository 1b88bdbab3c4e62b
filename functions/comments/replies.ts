import { commentHeadReads } from '#lib/comments/detail.ts';
import { repliesPage } from '#lib/comments/replies.ts';
import { commentToApi } from '#lib/comments/view.ts';
import { endpoint } from '#lib/http/endpoint.ts';
import { pagedResult } from '#lib/http/paging.ts';

/** GET /comments/detail/{id}/replies: a thread's replies, oldest first, with X-Total-Count. */
export const handler = endpoint({
  auth: 'public-read',
  reads: ({ path }) => commentHeadReads(path.id),
  handler: async (request) => {
    const { post, listed } = await repliesPage(request.caller, request.path.id, request.read, request.query, request.body);
    return pagedResult(request, listed, (reply) => commentToApi(reply, post, request.caller));
  },
});
