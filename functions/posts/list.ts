import { endpoint } from '#lib/http/endpoint.ts';
import { pagedResult } from '#lib/http/paging.ts';
import { listPosts } from '#lib/posts/list.ts';
import { postFromItem, postToApi } from '#lib/posts/post.ts';

/** GET /posts: published posts, sorted, searched, paged; the page is read in parallel with the token. */
export const handler = endpoint({
  auth: 'token',
  alongside: ({ query, body }) => listPosts(query, body),
  handler: async (request) => pagedResult(request, request.alongside, (item) => postToApi(postFromItem(item))),
});
