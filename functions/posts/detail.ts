import { endpoint } from '#lib/http/endpoint.ts';
import { ok } from '#lib/http/respond.ts';
import { postReads, viewPost } from '#lib/posts/detail.ts';
import { postToApi } from '#lib/posts/post.ts';

/**
 * GET /posts/detail/{slug}: a published post or the caller's draft; counts a caller's first visit
 * (not on HEAD, not for an anonymous reader) before the ETag is compared.
 */
export const handler = endpoint({
  auth: 'public-read',
  reads: ({ path }) => postReads(path.slug ?? ''),
  handler: async ({ caller, path, read, method }) => ok(postToApi(await viewPost(caller, path.slug ?? '', read, { recordVisit: method !== 'HEAD' }))),
});
