import { endpoint } from '#lib/http/endpoint.ts';
import { pagedResult } from '#lib/http/paging.ts';
import { postToApi } from '#lib/posts/post.ts';
import { openTagged, taggedPosts, taggedReads } from '#lib/lists/tagged.ts';

/** GET /posts/tagged/{slug}: the tag's published posts, as GET /posts lists them; the tag is read with the token. */
export const handler = endpoint({
  auth: 'public-read',
  reads: ({ path }) => taggedReads(path.slug ?? ''),
  alongside: async ({ path, query, body }) => openTagged(path.slug ?? '', query, body),
  handler: async (request) => pagedResult(request, await taggedPosts(request.path.slug ?? '', request.read, request.alongside), postToApi),
});
