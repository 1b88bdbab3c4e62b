import { tokenStillValid, type Caller } from '#lib/auth/tokens.ts';
import { readForAttempt, type BatchResult } from '#lib/db/batch.ts';
import { transactWrite } from '#lib/db/transact.ts';
import { Conflict, NotFound, PermissionDenied, ValidationError } from '#lib/errors.ts';
import { commentCountWrite, DRAFT_COMMENTS, LOCKED_COMMENTS, stillCommentable, type CommentedPost } from '#lib/posts/comment-target.ts';
import { withRetries } from '#lib/retry.ts';
import { isoTimestamp } from '#lib/time.ts';
import { commentChangeWrites, type CommentRecord } from './comment.ts';
import { NOT_OWNER } from './delete.ts';
import { findComment } from './detail.ts';
import type { CommentUpdate } from './input.ts';

// PUT /comments/detail/{id} (docs/api.md, Comments): its author edits the body; moderators and
// the post's author hide and unhide it. All or nothing, checked 401, 404, 403, 409, 400. Three
// round trips: the token and the head; the comment and its post; one transaction, conditioned on
// the comment's version (and, with `modified`, on the body's), with the post's count when it is
// hidden or shown again.

export const CANNOT_HIDE = 'You cannot hide or unhide this comment.';
export const ONLY_MODERATOR_UNHIDES = 'Only a moderator can unhide this comment.';

/** The 409 of an edit based on a text of the comment that is no longer its current one. */
export class CommentEditConflict extends Conflict {
  constructor() {
    super('The comment was changed since you read it.');
  }
}

const published = (comment: CommentRecord) => (comment.status === 'published' ? 1 : 0);

/** Who the caller is to the comment: the 403s of the request, in the contract's order. */
function checkPermissions(caller: Caller, comment: CommentRecord, post: CommentedPost, update: CommentUpdate): void {
  const author = caller.userId === comment.author_id;
  const postAuthor = caller.userId === post.authorId;
  const moderator = caller.moderator === true;
  if (update.sends.body) {
    if (!author) throw new PermissionDenied(NOT_OWNER);
    if (post.locked) throw new PermissionDenied(LOCKED_COMMENTS);
  }
  if (update.sends.status) {
    if (!moderator && !postAuthor) throw new PermissionDenied(CANNOT_HIDE);
    // The post's author shows again only what they hid.
    if (!moderator && update.status === 'published' && comment.status === 'hidden' && comment.hidden_by !== 'post_author') {
      throw new PermissionDenied(ONLY_MODERATOR_UNHIDES);
    }
  }
  if (!update.sends.body && !update.sends.status && !author && !moderator && !postAuthor) throw new PermissionDenied(NOT_OWNER);
}

/** The comment with the request applied (the same object when nothing changes). */
function applied(caller: Caller, before: CommentRecord, update: CommentUpdate): CommentRecord {
  let after = before;
  if (update.body !== undefined && update.body !== before.body) after = { ...after, body: update.body, modified: isoTimestamp(), edited: true };
  if (update.status === 'hidden') {
    const hider = caller.moderator ? 'moderator' : 'post_author';
    // A moderator's hiding of a hidden comment makes it theirs; the post's author's changes nothing.
    if (before.status === 'published' || (caller.moderator && before.hidden_by !== 'moderator')) after = { ...after, status: 'hidden', hidden_by: hider };
  } else if (update.status === 'published' && before.status === 'hidden') {
    after = { ...after, status: 'published', hidden_by: null };
  }
  return after;
}

export function updateComment(
  caller: Caller,
  id: string | undefined,
  update: CommentUpdate,
  read: BatchResult,
): Promise<{ comment: CommentRecord; post: CommentedPost }> {
  return withRetries(async (attempt) => {
    const { comment: before, post } = await findComment(id, await readForAttempt(attempt, read), caller);
    // A placeholder answers only GET.
    if (before.status === 'deleted') throw new NotFound();
    if (!post.publish) throw new PermissionDenied(DRAFT_COMMENTS);
    checkPermissions(caller, before, post, update);
    if (update.sends.body && update.modified !== undefined && update.modified !== before.modified) throw new CommentEditConflict();
    if (Object.keys(update.errors).length > 0) throw new ValidationError(update.errors);
    const after = applied(caller, before, update);
    if (after === before) return { comment: before, post };
    const edited = after.body !== before.body;
    const delta = published(after) - published(before);
    await transactWrite([
      tokenStillValid(caller),
      stillCommentable(post.id, { unlocked: edited }),
      ...(delta !== 0 ? [commentCountWrite(post, delta)] : []),
      ...commentChangeWrites(
        before,
        after,
        edited && update.modified !== undefined ? { modified: update.modified, onChanged: () => new CommentEditConflict() } : undefined,
      ),
    ]);
    return { comment: { ...after, version: before.version + 1 }, post };
  });
}
