import { endpoint } from '#lib/http/endpoint.ts';
import { ok } from '#lib/http/respond.ts';

/** GET /auth: who the token belongs to. */
export const handler = endpoint({
  auth: 'token',
  handler: async ({ caller }) => ok({ id: caller.userId, token: caller.token, username: caller.username }),
});
