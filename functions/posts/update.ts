import { endpoint } from '#lib/http/endpoint.ts';
import { ok } from '#lib/http/respond.ts';
import { postToApi } from '#lib/posts/post.ts';
import { parseUpdate, updatePost, updateReads } from '#lib/posts/update.ts';

/** PUT /posts/detail/{slug}: the author changes any subset of the fields. */
export const handler = endpoint({
  auth: 'token',
  prepare: ({ body }) => parseUpdate(body),
  reads: ({ path }, update) => updateReads(path.slug ?? '', update),
  handler: async ({ caller, path, prepared, read }) => ok(postToApi(await updatePost(caller, path.slug ?? '', prepared, read))),
});
