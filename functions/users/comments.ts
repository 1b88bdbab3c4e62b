import { openUserComments } from '#lib/comments/user-list.ts';
import { commentToApi } from '#lib/comments/view.ts';
import { endpoint } from '#lib/http/endpoint.ts';
import { pagedResult } from '#lib/http/paging.ts';
import { profileReads } from '#lib/users/detail.ts';

/** GET /users/detail/{username}/comments: the user's comments the caller may see, newest first; the profile is read with the token. */
export const handler = endpoint({
  auth: 'public-read',
  reads: ({ path }) => profileReads(path.username ?? ''),
  alongside: async ({ path, query, body }) => openUserComments(path.username ?? '', query, body),
  handler: async (request) =>
    pagedResult(request, await request.alongside.read(request.caller, request.read), ({ comment, post }) => commentToApi(comment, post, request.caller)),
});
