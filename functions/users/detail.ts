import { NotFound } from '../../lib/errors.ts';
import { endpoint } from '../../lib/http/endpoint.ts';
import { ok } from '../../lib/http/respond.ts';
import { getActiveProfile, toProfile } from '../../lib/users.ts';

/** GET /users/detail/{username}: one profile. */
export const handler = endpoint(
  async (request) => {
    const [, profile] = await Promise.all([request.caller(), getActiveProfile(request.path.username ?? '')]);
    if (!profile) throw new NotFound();
    return ok(toProfile(profile));
  },
  { auth: 'required' },
);
