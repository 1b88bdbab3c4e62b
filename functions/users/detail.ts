import { endpoint } from '#lib/http/endpoint.ts';
import { profileDetailRead } from '#lib/reads/routes.ts';

/** GET /users/detail/{username}: one profile, read with the token. */
export const handler = endpoint(profileDetailRead);
