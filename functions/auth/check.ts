import { endpoint } from '#lib/http/endpoint.ts';
import { ok } from '#lib/http/respond.ts';

/** GET /auth: who the token belongs to, and whether they moderate (read with the token). */
export const handler = endpoint({
  auth: 'token',
  handler: async ({ caller }) => ok({ id: caller.userId, token: caller.token, username: caller.username, is_moderator: caller.moderator === true }),
});
