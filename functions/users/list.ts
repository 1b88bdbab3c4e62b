import { endpoint } from '#lib/http/endpoint.ts';
import { pagedResult } from '#lib/http/paging.ts';
import { listUsers } from '#lib/users/list.ts';
import { profileToApi } from '#lib/profiles/profile.ts';

/** GET /users: active users, newest first. The page is read in parallel with the token. */
export const handler = endpoint({
  auth: 'public-read',
  alongside: ({ query }) => listUsers(query),
  handler: async (request) => pagedResult(request, request.alongside, profileToApi),
});
