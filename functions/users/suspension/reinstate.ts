import { endpoint } from '#lib/http/endpoint.ts';
import { ok } from '#lib/http/respond.ts';
import { reinstateUser, suspensionReads } from '#lib/users/suspension.ts';

/** DELETE /users/detail/{username}/suspension: a moderator reinstates the user (idempotent). */
export const handler = endpoint({
  auth: 'token',
  reads: ({ path }) => suspensionReads(path.username ?? ''),
  handler: async ({ caller, path, read }) => ok(await reinstateUser(caller, path.username ?? '', read)),
});
