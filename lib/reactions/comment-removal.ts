import { parseCommentHead } from '#lib/db/keys.ts';
import { removeCommentReports } from '#lib/reports/removal.ts';
import type { Reaction } from '#lib/streams/consumer.ts';
import type { TableChange } from '#lib/streams/records.ts';

// What follows a reported comment's deletion, outside its transaction: its reports go (GET /reports
// leaves it out at once, as it reads each target). The stream consumer is told of a comment's head
// removed, or kept as a placeholder, only when the head says the comment was reported
// (infra/streams.ts), so an unreported comment costs no invocation. Idempotent.

export interface DeletedComment {
  postId: string;
  commentId: string;
}

/** The reported comment a change deleted (its head removed, or made a placeholder's); undefined for any other change. */
export function deletedReportedComment(change: TableChange): DeletedComment | undefined {
  const commentId = parseCommentHead(change.keys);
  if (!commentId) return undefined;
  const image = change.kind === 'REMOVE' ? change.oldImage : change.kind === 'MODIFY' && change.newImage?.status === 'deleted' ? change.newImage : undefined;
  if (image?.reported !== true) return undefined;
  return { postId: String(image.post_id), commentId };
}

export const commentRemoval: Reaction<DeletedComment> = {
  name: 'comment-removal',
  select: deletedReportedComment,
  apply: ({ postId, commentId }) => removeCommentReports(postId, commentId),
};
