import { endpoint } from '#lib/http/endpoint.ts';
import { pagedResult } from '#lib/http/paging.ts';
import { mineReads, myPosts, openMine } from '#lib/lists/mine.ts';
import { postToApi } from '#lib/posts/post.ts';

/** GET /posts/me: the caller's posts, published and drafts, as GET /posts lists them; read in parallel with the token, their counts with it. */
export const handler = endpoint({
  auth: 'token',
  validated: true,
  reads: ({ event, query, body }) => mineReads(event.headers?.authorization, query, body),
  alongside: async ({ event, query, body }) => openMine(event.headers?.authorization, query, body),
  handler: async (request) => pagedResult(request, await myPosts(request.caller, request.alongside, request.read, request.query, request.body), postToApi),
});
