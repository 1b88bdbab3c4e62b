import { endpoint } from '#lib/http/endpoint.ts';
import { pagedResult } from '#lib/http/paging.ts';
import { listUsers, usersListReads, withUsersTotal } from '#lib/users/list.ts';
import { profileToApi } from '#lib/profiles/profile.ts';

/** GET /users: active users, newest first. The page is read in parallel with the token, the count of active users with it. */
export const handler = endpoint({
  auth: 'public-read',
  reads: () => usersListReads(),
  alongside: ({ query }) => listUsers(query),
  handler: async (request) => pagedResult(request, withUsersTotal(request.read, request.alongside), profileToApi),
});
