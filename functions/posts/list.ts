import { endpoint } from '#lib/http/endpoint.ts';
import { allPostsList } from '#lib/reads/routes.ts';

/** GET /posts: published posts, sorted, searched, paged; the page's entries are read in parallel with the token, the site's counts with it. */
export const handler = endpoint(allPostsList);
