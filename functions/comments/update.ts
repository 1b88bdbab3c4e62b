import { parseCommentUpdate } from '#lib/comments/input.ts';
import { commentHeadReads } from '#lib/comments/detail.ts';
import { updateComment } from '#lib/comments/update.ts';
import { commentToApi } from '#lib/comments/view.ts';
import { endpoint } from '#lib/http/endpoint.ts';
import { ok } from '#lib/http/respond.ts';

/** PUT /comments/detail/{id}: its author edits it; moderators and the post's author hide or show it. */
export const handler = endpoint({
  auth: 'token',
  reads: ({ path }) => commentHeadReads(path.id),
  handler: async ({ caller, path, body, read }) => {
    const { comment, post } = await updateComment(caller, path.id, parseCommentUpdate(body), read);
    return ok(commentToApi(comment, post, caller));
  },
});
