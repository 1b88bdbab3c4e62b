import { endpoint } from '#lib/http/endpoint.ts';
import { postDetail } from '#lib/reads/routes.ts';

/**
 * GET /posts/detail/{slug}: a published post or the caller's draft; counts a caller's first visit
 * (not on HEAD, not for an anonymous reader) before the ETag is compared.
 */
export const handler = endpoint(postDetail);
