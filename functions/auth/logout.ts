import { tokenFromHeader } from '../../lib/auth.ts';
import { NotAuthenticated } from '../../lib/errors.ts';
import { endpoint } from '../../lib/http/endpoint.ts';
import { ok } from '../../lib/http/respond.ts';
import { revokeToken } from '../../lib/tokens.ts';

/** GET /logout: the caller's token stops working at once. */
export const handler = endpoint(
  async ({ event }) => {
    const token = tokenFromHeader(event.headers?.authorization);
    if (token === null || !(await revokeToken(token))) throw new NotAuthenticated('You are not logged in!');
    return ok({ detail: 'You are logged out!' });
  },
  { auth: 'none' },
);
