import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { tableName } from '#lib/config.ts';
import { batchDelete } from '#lib/db/batch.ts';
import { db } from '#lib/db/client.ts';
import { keyOf, keys } from '#lib/db/keys.ts';
import { partitionPages } from '#lib/db/query.ts';
import { PARTITION_KEY, SORT_KEY } from '#lib/db/table.ts';
import { tx, type TxWrite } from '#lib/db/transact.ts';
import type { PostRecord } from '#lib/posts/post.ts';
import { isoTimestamp } from '#lib/time.ts';

// The vote entity: one item per (post, user) holding the user's one vote, keyed by the post's
// stable id so that it survives renames. The post's rating_likes and rating_dislikes (on its
// stats item) count these items; both change in one transaction.

export type VoteValue = 'up' | 'down';
export const VOTE_VALUES: readonly VoteValue[] = ['up', 'down'];

const COUNTER: Record<VoteValue, 'rating_likes' | 'rating_dislikes'> = { up: 'rating_likes', down: 'rating_dislikes' };

/** The caller's vote on a post, read strongly consistent: what a change of it is conditioned on. */
export async function readVote(postId: string, userId: number): Promise<VoteValue | null> {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: keys.vote(postId, userId), ConsistentRead: true }));
  const vote = Item?.vote;
  return vote === 'up' || vote === 'down' ? vote : null;
}

/** The post with one user's vote moved from `before` to `after` (null: no vote), at its next version. */
export function postWithVote(post: PostRecord, before: VoteValue | null, after: VoteValue | null): PostRecord {
  const changed = { ...post, version: post.version + 1 };
  if (before) changed[COUNTER[before]] -= 1;
  if (after) changed[COUNTER[after]] += 1;
  return changed;
}

/**
 * The write of the vote item from `before` to `after`, conditioned on `before` being what is
 * stored: a concurrent change of the same vote fails it, and the operation starts again from its
 * reads, so a replay or a race never counts a vote twice.
 */
export function voteWrite(postId: string, userId: number, before: VoteValue | null, after: VoteValue | null): TxWrite {
  const condition =
    before === null ? { expression: 'attribute_not_exists(PK)' } : { expression: '#vote = :before', names: { '#vote': 'vote' }, values: { ':before': before } };
  if (after === null) return { write: tx.delete(keys.vote(postId, userId), condition) };
  return { write: tx.put({ ...keys.vote(postId, userId), post_id: postId, user_id: userId, vote: after, created: isoTimestamp() }, condition) };
}

/** The API's vote state: the caller's vote and the post's counts. */
export function voteState(vote: VoteValue | null, post: Pick<PostRecord, 'rating_likes' | 'rating_dislikes'>) {
  return { vote, rating_likes: post.rating_likes, rating_dislikes: post.rating_dislikes };
}

/**
 * Removes every vote of a deleted post, page by page (the table's stream consumer,
 * lib/reactions/post-removal.ts). The post's counts went with its stats item; its id is never reused, so
 * running this again finds nothing to remove.
 */
export async function removeVotes(postId: string): Promise<void> {
  for await (const items of partitionPages(keys.votesOf(postId), { attributes: [PARTITION_KEY, SORT_KEY] })) await batchDelete(items.map(keyOf));
}
