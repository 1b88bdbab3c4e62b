import { deleteComment } from '#lib/comments/delete.ts';
import { commentHeadReads } from '#lib/comments/detail.ts';
import { endpoint } from '#lib/http/endpoint.ts';
import { noContent } from '#lib/http/respond.ts';

/** DELETE /comments/detail/{id}: by its author or a moderator. */
export const handler = endpoint({
  auth: 'token',
  reads: ({ path }) => commentHeadReads(path.id),
  handler: async ({ caller, path, read }) => {
    await deleteComment(caller, path.id, read);
    return noContent();
  },
});
