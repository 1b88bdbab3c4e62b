import type { Caller } from '#lib/auth/tokens.ts';
import type { Item } from '#lib/db/batch.ts';
import { keys, mineAuthorId, postLists, type Key } from '#lib/db/keys.ts';
import { tx, type TxWrite } from '#lib/db/transact.ts';
import { NotFound, PermissionDenied } from '#lib/errors.ts';
import type { PostRecord } from './post.ts';

// A post as its comments see it (lib/comments): whether it is published, whose it is, whether its
// comments are locked, and where its counters are. A request that names a post by slug reads it
// whole (its text and stats); one that names a comment by id finds the post by its id, through
// its `mine` list entry, which says all of that too (lib/posts/entries.ts). Every comment's write
// checks that entry in its transaction and counts on the stats item with ADD.

export interface CommentedPost {
  id: string;
  slug: string;
  publish: boolean;
  authorId: number;
  locked: boolean;
}

export const DRAFT_COMMENTS = 'Drafts cannot be commented on.';
export const LOCKED_COMMENTS = 'Comments on this post are locked.';

export function commentedPost(post: PostRecord): CommentedPost {
  return { id: post.id, slug: post.slug, publish: post.publish, authorId: post.author_id, locked: post.comments_locked };
}

/** The key of the entry that finds a post by its id. */
export const postByIdKey = (postId: string): Key => keys.postEntry(postId, postLists.mine);

/** The post a `mine` entry read by postByIdKey stands for; undefined when the post is gone. */
export function commentedPostFromEntry(entry: Item | undefined): CommentedPost | undefined {
  const authorId = entry ? mineAuthorId(String(entry.ListPK)) : undefined;
  if (!entry || authorId === undefined) return undefined;
  return { id: String(entry.post_id), slug: String(entry.slug), publish: entry.publish === true, authorId, locked: entry.comments_locked === true };
}

/**
 * Whether the caller may read the post's comments: a published post's, or their own draft's
 * (docs/api.md: on a draft every comment route is 404 to others, moderators too).
 */
export function readableComments(post: CommentedPost | undefined, caller: Caller | null): CommentedPost {
  if (!post || !(post.publish || caller?.userId === post.authorId)) throw new NotFound();
  return post;
}

/** The post, if the caller may write on its comments: 404 as readableComments, 403 on a draft (its author's). */
export function writableComments(post: CommentedPost | undefined, caller: Caller): CommentedPost {
  const readable = readableComments(post, caller);
  if (!readable.publish) throw new PermissionDenied(DRAFT_COMMENTS);
  return readable;
}

/**
 * The check, in a comment's transaction, that the post is still published (and, `unlocked`, its
 * comments not locked), on its `mine` entry. Failing, the write starts again from its reads, which
 * then answer what changed (404, 403).
 */
export function stillCommentable(postId: string, { unlocked }: { unlocked: boolean }): TxWrite {
  return {
    write: tx.check(postByIdKey(postId), {
      expression: unlocked ? 'publish = :true AND (attribute_not_exists(comments_locked) OR comments_locked = :false)' : 'publish = :true',
      values: unlocked ? { ':true': true, ':false': false } : { ':true': true },
    }),
  };
}

/**
 * Adds `delta` to the post's total_comments (its stats item, under the slug it was found at) and
 * moves its version, so that a change of the post that read the count before fails its version
 * check and reads it again. `newThread`: the sort key of a new thread, which must come after every
 * thread stored (last_thread), so that threads are stored in the order they are listed.
 */
export function commentCountWrite(post: Pick<CommentedPost, 'id' | 'slug'>, delta: number, newThread?: string): TxWrite {
  const expression = `ADD total_comments :delta, version :one${newThread === undefined ? '' : ' SET last_thread = :thread'}`;
  const condition = newThread === undefined ? 'post_id = :id' : 'post_id = :id AND (attribute_not_exists(last_thread) OR last_thread < :thread)';
  return {
    write: tx.update(
      keys.postStats(post.slug),
      { expression, values: { ':delta': delta, ':one': 1, ...(newThread === undefined ? {} : { ':thread': newThread }) } },
      { expression: condition, values: { ':id': post.id } },
    ),
  };
}
