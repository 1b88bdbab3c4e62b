import { endpoint } from '#lib/http/endpoint.ts';
import { ok } from '#lib/http/respond.ts';
import { relatedPosts } from '#lib/lists/related.ts';
import { postReads } from '#lib/posts/detail.ts';
import { postToApi } from '#lib/posts/post.ts';

/** GET /posts/detail/{slug}/related: the published posts sharing the most tags with a post the caller can see; the post is read with the token. */
export const handler = endpoint({
  auth: 'public-read',
  reads: ({ path }) => postReads(path.slug ?? ''),
  handler: async ({ caller, path, query, body, read }) => ok((await relatedPosts(caller, path.slug ?? '', read, { query, body })).map(postToApi)),
});
