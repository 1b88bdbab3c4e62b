import { endpoint } from '#lib/http/endpoint.ts';
import { ok } from '#lib/http/respond.ts';
import { postToApi } from '#lib/posts/post.ts';
import { updatePost, updateReads } from '#lib/posts/update.ts';

/** PUT /posts/detail/{slug}: the author changes any subset of the fields. */
export const handler = endpoint({
  auth: 'token',
  reads: ({ path, body }) => updateReads(path.slug ?? '', body),
  handler: async ({ caller, path, body, read }) => ok(postToApi(await updatePost(caller, path.slug ?? '', body, read))),
});
