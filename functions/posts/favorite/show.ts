import { showFavorite } from '#lib/favorites/show.ts';
import { endpoint } from '#lib/http/endpoint.ts';
import { ok } from '#lib/http/respond.ts';
import { postReads } from '#lib/posts/detail.ts';

/** GET /posts/detail/{slug}/favorite: whether the caller holds a post they can see, with its count. */
export const handler = endpoint({
  auth: 'token',
  reads: ({ path }) => postReads(path.slug ?? ''),
  handler: async ({ caller, path, read }) => ok(await showFavorite(caller, path.slug ?? '', read)),
});
