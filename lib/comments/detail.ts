import type { Caller } from '#lib/auth/tokens.ts';
import { batchGet, type BatchResult } from '#lib/db/batch.ts';
import { keys, type Key } from '#lib/db/keys.ts';
import { NotFound } from '#lib/errors.ts';
import { commentedPostFromEntry, postByIdKey, readableComments, type CommentedPost } from '#lib/posts/comment-target.ts';
import { commentFromItems, commentKey, headFromItem, isEntityId, type CommentHead, type CommentRecord } from './comment.ts';

// A comment named by its id (GET, PUT, DELETE /comments/detail/{id}, its report): its head was
// read with the token, which says where it is; one more read brings the comment and its post
// (found by id: published? whose? locked? its slug now), with whatever else the operation needs
// from where the head points.

/** What a route naming a comment reads with the token: its head, unless the path value can be no comment's id. */
export const commentHeadReads = (id: string | undefined): Key[] => (isEntityId(id) ? [keys.commentHead(id)] : []);

export interface FoundComment {
  head: CommentHead;
  comment: CommentRecord;
  post: CommentedPost;
  /** The second read, with the operation's own keys. */
  read: BatchResult;
}

/**
 * The comment `id` with its post, if the caller may read it (404 otherwise, and for a path value
 * that can be no id); `more`: keys the operation reads with it, from its head.
 */
export async function findComment(
  id: string | undefined,
  first: BatchResult,
  caller: Caller | null,
  more: (head: CommentHead) => Key[] = () => [],
): Promise<FoundComment> {
  const head = isEntityId(id) ? headFromItem(first.get(keys.commentHead(id))) : undefined;
  if (!head) throw new NotFound();
  const read = await batchGet([commentKey(head), postByIdKey(head.post_id), ...more(head)]);
  const comment = commentFromItems(read.get(commentKey(head)), first.get(keys.commentHead(head.id)));
  const post = readableComments(commentedPostFromEntry(read.get(postByIdKey(head.post_id))), caller);
  if (!comment) throw new NotFound();
  return { head, comment, post, read };
}
