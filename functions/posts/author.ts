import { endpoint } from '#lib/http/endpoint.ts';
import { authoredList } from '#lib/reads/routes.ts';

/** GET /posts/author/{username}: the user's published posts, as GET /posts lists them; the profile is read with the token. */
export const handler = endpoint(authoredList);
