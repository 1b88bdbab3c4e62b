import { endpoint } from '#lib/http/endpoint.ts';
import { ok } from '#lib/http/respond.ts';
import { showSuspension, suspensionReads } from '#lib/users/suspension.ts';

/** GET /users/detail/{username}/suspension: whether a moderator suspended the user. */
export const handler = endpoint({
  auth: 'token',
  reads: ({ path }) => suspensionReads(path.username ?? ''),
  handler: async ({ caller, path, read }) => ok(showSuspension(caller, path.username ?? '', read)),
});
