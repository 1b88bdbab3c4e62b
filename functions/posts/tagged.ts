import { endpoint } from '#lib/http/endpoint.ts';
import { taggedList } from '#lib/reads/routes.ts';

/** GET /posts/tagged/{slug}: the tag's published posts, as GET /posts lists them; the tag is read with the token. */
export const handler = endpoint(taggedList);
