import { endpoint } from '#lib/http/endpoint.ts';
import { tagDetailRead } from '#lib/reads/routes.ts';

/** GET /tags/detail/{slug}: one tag, read with the token. */
export const handler = endpoint(tagDetailRead);
