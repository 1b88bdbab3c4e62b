import { endpoint } from '#lib/http/endpoint.ts';
import { noContent } from '#lib/http/respond.ts';
import { deletePost } from '#lib/posts/delete.ts';
import { postReads } from '#lib/posts/detail.ts';

/** DELETE /posts/detail/{slug}: the author removes the post. */
export const handler = endpoint({
  auth: 'token',
  reads: ({ path }) => postReads(path.slug ?? ''),
  handler: async ({ caller, path, read }) => {
    await deletePost(caller, path.slug ?? '', read);
    return noContent();
  },
});
