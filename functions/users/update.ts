import { endpoint } from '#lib/http/endpoint.ts';
import { ok } from '#lib/http/respond.ts';
import { profileReads } from '#lib/users/detail.ts';
import { profileToApi } from '#lib/profiles/profile.ts';
import { updateProfile } from '#lib/users/update.ts';

/** PUT /users/detail/{username}: the owner changes any subset of the editable fields. */
export const handler = endpoint({
  auth: 'token',
  reads: ({ path }) => profileReads(path.username ?? ''),
  handler: async ({ caller, path, read, body }) => ok(profileToApi(await updateProfile(caller, path.username ?? '', read, body))),
});
