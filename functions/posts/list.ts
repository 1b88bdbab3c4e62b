import { endpoint } from '#lib/http/endpoint.ts';
import { pagedResult } from '#lib/http/paging.ts';
import { allPosts, allPostsReads } from '#lib/lists/all.ts';
import { openPostList } from '#lib/lists/list.ts';
import { POST_LISTS } from '#lib/lists/post-lists.ts';
import { postToApi } from '#lib/posts/post.ts';

/** GET /posts: published posts, sorted, searched, paged; the page's entries are read in parallel with the token, the site's counts with it. */
export const handler = endpoint({
  auth: 'public-read',
  reads: ({ query, body }) => allPostsReads(query, body),
  alongside: async ({ query, body }) => openPostList(POST_LISTS.all(), query, body),
  handler: async (request) => pagedResult(request, await allPosts(request.read, request.alongside), postToApi),
});
