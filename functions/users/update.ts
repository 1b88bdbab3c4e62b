import { NotFound, PermissionDenied } from '../../lib/errors.ts';
import { endpoint } from '../../lib/http/endpoint.ts';
import { ok } from '../../lib/http/respond.ts';
import { getActiveProfile, parseProfileInput, toProfile, updateProfile } from '../../lib/users.ts';

/** PUT /users/detail/{username}: the owner changes any subset of the editable fields. */
export const handler = endpoint(
  async (request) => {
    const caller = await request.caller();
    const username = request.path.username ?? '';
    if (caller.username !== username) {
      if (!(await getActiveProfile(username))) throw new NotFound();
      throw new PermissionDenied('You are not owner of this profile!');
    }
    const profile = await updateProfile(username, parseProfileInput(request.body));
    return ok(toProfile(profile));
  },
  { auth: 'required' },
);
