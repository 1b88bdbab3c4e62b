import { endpoint } from '#lib/http/endpoint.ts';
import { ok } from '#lib/http/respond.ts';
import { suspendUser, suspensionReads } from '#lib/users/suspension.ts';

/** POST /users/detail/{username}/suspension: a moderator suspends the user (idempotent). */
export const handler = endpoint({
  auth: 'token',
  reads: ({ path }) => suspensionReads(path.username ?? ''),
  handler: async ({ caller, path, read }) => ok(await suspendUser(caller, path.username ?? '', read)),
});
