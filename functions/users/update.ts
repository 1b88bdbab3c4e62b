import { NotFound, PermissionDenied } from '../../lib/errors.ts';
import { endpoint } from '../../lib/http/endpoint.ts';
import { ok } from '../../lib/http/respond.ts';
import { activeProfile, parseProfileInput, profileKey, toProfile, updateProfile } from '../../lib/users.ts';

/** PUT /users/detail/{username}: the owner changes any subset of the editable fields. */
export const handler = endpoint(
  async (request) => {
    const username = request.path.username ?? '';
    const key = profileKey(username);
    if (!key) throw new NotFound();
    const { caller, read } = await request.readAsCaller([key]);
    if (!activeProfile(read.get(key))) throw new NotFound();
    if (caller.username !== username) throw new PermissionDenied('You are not owner of this profile!');
    const profile = await updateProfile(username, parseProfileInput(request.body));
    return ok(toProfile(profile));
  },
  { auth: 'required' },
);
