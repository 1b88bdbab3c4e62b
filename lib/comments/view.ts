import type { Caller } from '#lib/auth/tokens.ts';
import type { CommentedPost } from '#lib/posts/comment-target.ts';
import type { CommentRecord } from './comment.ts';

// Who sees what of a comment (docs/api.md, "Who sees what"): a published comment is whole for
// everyone; a hidden one is whole for its author and moderators, and for the post's author when
// they hid it, a placeholder for the others; a deleted one (a thread kept for its replies) is a
// placeholder for all. A placeholder has no author and an empty body, every other field as stored.

/** Whether `caller` sees the comment whole (else as a placeholder). */
export function seesWhole(comment: CommentRecord, post: Pick<CommentedPost, 'authorId'>, caller: Caller | null): boolean {
  if (comment.status === 'published') return true;
  if (comment.status === 'deleted' || !caller) return false;
  if (caller.moderator || caller.userId === comment.author_id) return true;
  return caller.userId === post.authorId && comment.hidden_by === 'post_author';
}

/** The API shape of a comment for `caller`, fields in the contract's order. */
export function commentToApi(comment: CommentRecord, post: Pick<CommentedPost, 'slug' | 'authorId'>, caller: Caller | null) {
  const whole = seesWhole(comment, post, caller);
  return {
    id: comment.id,
    post: post.slug,
    author: whole ? comment.author : null,
    body: whole ? comment.body : '',
    created: comment.created,
    modified: comment.modified,
    edited: comment.edited,
    status: comment.status,
    hidden_by: comment.status === 'hidden' ? comment.hidden_by : null,
    parent: comment.thread,
    in_reply_to: comment.in_reply_to,
    total_replies: comment.thread === null ? comment.total_replies : 0,
  };
}

export type ApiComment = ReturnType<typeof commentToApi>;

/** A thread as a page of threads shows it: the comment, then its first replies. */
export function threadToApi(thread: CommentRecord, replies: CommentRecord[], post: Pick<CommentedPost, 'slug' | 'authorId'>, caller: Caller | null) {
  return { ...commentToApi(thread, post, caller), replies: replies.map((reply) => commentToApi(reply, post, caller)) };
}
