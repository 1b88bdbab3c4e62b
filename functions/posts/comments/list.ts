import { threadsPage } from '#lib/comments/threads.ts';
import { threadToApi } from '#lib/comments/view.ts';
import { endpoint } from '#lib/http/endpoint.ts';
import { pagedResult } from '#lib/http/paging.ts';
import { postReads } from '#lib/posts/detail.ts';

/** GET /posts/detail/{slug}/comments: the post's threads, oldest first, each with its first replies. */
export const handler = endpoint({
  auth: 'public-read',
  reads: ({ path }) => postReads(path.slug ?? ''),
  handler: async (request) => {
    const { post, listed } = await threadsPage(request.caller, request.path.slug ?? '', request.read, request.query, request.body);
    return pagedResult(request, listed, ({ thread, replies }) => threadToApi(thread, replies, post, request.caller));
  },
});
