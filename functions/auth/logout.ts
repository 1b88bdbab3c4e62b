import { logout } from '#lib/auth/logout.ts';
import { endpoint } from '#lib/http/endpoint.ts';
import { ok } from '#lib/http/respond.ts';

/** GET /logout: the caller's token stops working at once (one conditional delete, no lookup first). */
export const handler = endpoint({
  auth: 'none',
  handler: async ({ event }) => {
    await logout(event.headers?.authorization);
    return ok({ detail: 'You are logged out!' });
  },
});
