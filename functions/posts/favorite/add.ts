import { addFavorite } from '#lib/favorites/add.ts';
import { endpoint } from '#lib/http/endpoint.ts';
import { ok } from '#lib/http/respond.ts';
import { postReads } from '#lib/posts/detail.ts';

/** POST /posts/detail/{slug}/favorite: makes a post the caller can see a favorite (idempotent). */
export const handler = endpoint({
  auth: 'token',
  reads: ({ path }) => postReads(path.slug ?? ''),
  handler: async ({ caller, path, read }) => ok(await addFavorite(caller, path.slug ?? '', read)),
});
