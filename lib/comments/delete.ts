import { tokenStillValid, type Caller } from '#lib/auth/tokens.ts';
import { readForAttempt, type BatchResult } from '#lib/db/batch.ts';
import { keys } from '#lib/db/keys.ts';
import { transactWrite } from '#lib/db/transact.ts';
import { NotFound, PermissionDenied } from '#lib/errors.ts';
import { commentCountWrite, DRAFT_COMMENTS, stillCommentable } from '#lib/posts/comment-target.ts';
import { withRetries } from '#lib/retry.ts';
import { commentChangeWrites, headFromItem, isEntityId, type CommentRecord } from './comment.ts';
import { findComment } from './detail.ts';
import { firstReplies, replyRemovalWrites } from './thread-counts.ts';

// DELETE /comments/detail/{id}: by its author or a moderator. A thread with listed replies stays
// as a placeholder (no author, no body, out of its author's list); any other comment goes, and a
// placeholder goes with its last reply. Three round trips: the token and the head; the comment,
// its post and its thread's head (beside them, for one of a thread's first replies, the thread's
// first replies); one transaction with the counts (ADD), the post's check and the token's.

export const NOT_OWNER = 'You are not owner of this comment!';

const published = (comment: CommentRecord) => (comment.status === 'published' ? 1 : 0);

export function deleteComment(caller: Caller, id: string | undefined, read: BatchResult): Promise<void> {
  return withRetries(async (attempt) => {
    const first = await readForAttempt(attempt, read);
    const head = isEntityId(id) ? headFromItem(first.get(keys.commentHead(id))) : undefined;
    const replies = head?.thread && head.preview ? firstReplies(head.thread) : Promise.resolve([]);
    replies.catch(() => undefined);
    const found = await findComment(id, first, caller, (found) => (found.thread ? [keys.commentHead(found.thread)] : []));
    const { comment: before, post } = found;
    // A placeholder answers only GET.
    if (before.status === 'deleted') throw new NotFound();
    if (!post.publish) throw new PermissionDenied(DRAFT_COMMENTS);
    if (before.author_id !== caller.userId && !caller.moderator) throw new PermissionDenied(NOT_OWNER);
    let writes;
    if (before.thread === null) {
      const after = before.total_replies > 0 ? { ...before, status: 'deleted' as const, hidden_by: null, body: '' } : null;
      writes = commentChangeWrites(before, after);
    } else {
      const thread = headFromItem(found.read.get(keys.commentHead(before.thread)));
      if (!thread) throw new NotFound();
      writes = [...commentChangeWrites(before, null), ...replyRemovalWrites(before, thread, await replies)];
    }
    const delta = -published(before);
    await transactWrite([
      tokenStillValid(caller),
      stillCommentable(post.id, { unlocked: false }),
      ...(delta !== 0 ? [commentCountWrite(post, delta)] : []),
      ...writes,
    ]);
  });
}
