import { endpoint } from '../../lib/http/endpoint.ts';
import { ok } from '../../lib/http/respond.ts';
import { viewPost } from '../../lib/posts/read.ts';
import { toPost } from '../../lib/posts/record.ts';

/** GET /posts/detail/{slug}: a published post or the caller's draft; counts a first visit (not on HEAD). */
export const handler = endpoint(
  async (request) => ok(toPost(await viewPost(request.readAsCaller, request.path.slug ?? '', { recordVisit: request.method !== 'HEAD' }))),
  { auth: 'required' },
);
