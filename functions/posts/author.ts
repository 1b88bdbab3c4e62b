import { endpoint } from '#lib/http/endpoint.ts';
import { pagedResult } from '#lib/http/paging.ts';
import { authoredPosts, authorReads, openAuthored } from '#lib/lists/author.ts';
import { postToApi } from '#lib/posts/post.ts';

/** GET /posts/author/{username}: the user's published posts, as GET /posts lists them; the profile is read with the token. */
export const handler = endpoint({
  auth: 'public-read',
  reads: ({ path }) => authorReads(path.username ?? ''),
  alongside: async ({ path, query, body }) => openAuthored(path.username ?? '', query, body),
  handler: async (request) => pagedResult(request, await authoredPosts(request.path.username ?? '', request.read, request.alongside), postToApi),
});
