import { removeFavorite } from '#lib/favorites/remove.ts';
import { endpoint } from '#lib/http/endpoint.ts';
import { ok } from '#lib/http/respond.ts';
import { postReads } from '#lib/posts/detail.ts';

/** DELETE /posts/detail/{slug}/favorite: removes the favorite (idempotent). */
export const handler = endpoint({
  auth: 'token',
  reads: ({ path }) => postReads(path.slug ?? ''),
  handler: async ({ caller, path, read }) => ok(await removeFavorite(caller, path.slug ?? '', read)),
});
