import { endpoint } from '#lib/http/endpoint.ts';
import { ok } from '#lib/http/respond.ts';
import { profileDetail, profileReads } from '#lib/users/detail.ts';
import { profileToApi } from '#lib/profiles/profile.ts';

/** GET /users/detail/{username}: one profile, read with the token. */
export const handler = endpoint({
  auth: 'public-read',
  reads: ({ path }) => profileReads(path.username ?? ''),
  handler: async ({ path, read }) => ok(profileToApi(profileDetail(read, path.username ?? ''))),
});
