import { createComment, createCommentReads } from '#lib/comments/create.ts';
import { parseCommentCreate } from '#lib/comments/input.ts';
import { commentToApi } from '#lib/comments/view.ts';
import { endpoint } from '#lib/http/endpoint.ts';
import { created } from '#lib/http/respond.ts';

/** POST /posts/detail/{slug}/comments: a comment on the post, or a reply to one of its comments. */
export const handler = endpoint({
  auth: 'token',
  prepare: ({ body }) => parseCommentCreate(body),
  reads: ({ path }, input) => createCommentReads(path.slug ?? '', input),
  handler: async ({ caller, path, prepared, read }) => {
    const { comment, post } = await createComment(caller, path.slug ?? '', prepared, read);
    return created(commentToApi(comment, post, caller));
  },
});
