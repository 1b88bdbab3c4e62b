import { endpoint } from '#lib/http/endpoint.ts';
import { ok } from '#lib/http/respond.ts';
import { changePassword, passwordChangeReads } from '#lib/users/password.ts';

/** POST /users/detail/{username}/password: the owner changes their password; their other tokens stop working. */
export const handler = endpoint({
  auth: 'token',
  reads: ({ path }) => passwordChangeReads(path.username ?? ''),
  handler: async ({ caller, path, read, body }) => {
    await changePassword(caller, path.username ?? '', read, body);
    return ok({ detail: 'Password changed.' });
  },
});
