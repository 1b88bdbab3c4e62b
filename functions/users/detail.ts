import { NotFound } from '../../lib/errors.ts';
import { endpoint } from '../../lib/http/endpoint.ts';
import { ok } from '../../lib/http/respond.ts';
import { activeProfile, profileKey, toProfile } from '../../lib/users.ts';

/** GET /users/detail/{username}: one profile. */
export const handler = endpoint(
  async (request) => {
    const username = request.path.username ?? '';
    const key = profileKey(username);
    if (!key) throw new NotFound();
    const { read } = await request.readAsCaller([key]);
    const profile = activeProfile(read.get(key));
    if (!profile) throw new NotFound();
    return ok(toProfile(profile));
  },
  { auth: 'required' },
);
