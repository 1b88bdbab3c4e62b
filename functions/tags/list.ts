import { endpoint } from '#lib/http/endpoint.ts';
import { tagsList } from '#lib/reads/routes.ts';

/** GET /tags: newest first; `q` searches titles. The page is read in parallel with the token, the count of tags with it. */
export const handler = endpoint(tagsList);
