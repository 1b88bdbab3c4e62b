import { openFavorites } from '#lib/favorites/list.ts';
import { endpoint } from '#lib/http/endpoint.ts';
import { pagedResult } from '#lib/http/paging.ts';
import { postToApi } from '#lib/posts/post.ts';
import { profileReads } from '#lib/users/detail.ts';

/** GET /users/detail/{username}/favorites: the user's favorite posts, newest favorite first; the profile is read with the token. */
export const handler = endpoint({
  auth: 'public-read',
  reads: ({ path }) => profileReads(path.username ?? ''),
  alongside: async ({ path, query, body }) => openFavorites(path.username ?? '', query, body),
  handler: async (request) => pagedResult(request, await request.alongside.read(request.caller, request.read), postToApi),
});
