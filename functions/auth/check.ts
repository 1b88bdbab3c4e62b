import { endpoint } from '../../lib/http/endpoint.ts';
import { ok } from '../../lib/http/respond.ts';

/** GET /auth: who the token belongs to. */
export const handler = endpoint(
  async (request) => {
    const caller = await request.caller();
    return ok({ id: caller.userId, token: caller.token, username: caller.username });
  },
  { auth: 'required' },
);
