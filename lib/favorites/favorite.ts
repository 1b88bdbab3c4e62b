import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { Caller } from '#lib/auth/tokens.ts';
import { tableName } from '#lib/config.ts';
import type { Item } from '#lib/db/batch.ts';
import { db } from '#lib/db/client.ts';
import { keys, listPartitions, listSortKeys } from '#lib/db/keys.ts';
import { partitionPages } from '#lib/db/query.ts';
import { INDEXES } from '#lib/db/table.ts';
import { transactWrite, tx, type TxWrite } from '#lib/db/transact.ts';
import type { PostRecord } from '#lib/posts/post.ts';
import { isoTimestamp } from '#lib/time.ts';
import { profileFavoritesWrite } from '#lib/profiles/profile.ts';

// The favorite entity: one item per (post, user), keyed by the post's stable id so that it
// survives renames, and listed per user (GSI1, newest first) for GET /users/detail/{u}/favorites.
// It carries the post's slug as it was when favorited: a hint for reading the post, checked
// against the post's id (a renamed post is found through its list entry, lib/favorites/list.ts).
// The post's total_favorites and the holder's profile total_favorites count these items; all
// three change in one transaction.

/** Whether the caller holds the post as a favorite, read strongly consistent. */
export async function isFavorite(postId: string, userId: number): Promise<boolean> {
  const { Item } = await db().send(
    new GetCommand({ TableName: tableName(), Key: keys.favorite(postId, userId), ProjectionExpression: 'PK', ConsistentRead: true }),
  );
  return Item !== undefined;
}

/** Stores a new favorite and counts it on the holder's profile; fails with `onExists` when there already is one. */
export function addFavoriteWrites(post: PostRecord, caller: Caller, onExists: () => Error): TxWrite[] {
  const created = isoTimestamp();
  const item = {
    ...keys.favorite(post.id, caller.userId),
    [INDEXES.lists.partitionKey]: listPartitions.favoritesOf(caller.username),
    [INDEXES.lists.sortKey]: listSortKeys.favorite(created, post.id),
    post_id: post.id,
    user_id: caller.userId,
    username: caller.username,
    slug: post.slug,
    created,
  };
  return [{ write: tx.put(item, { expression: 'attribute_not_exists(PK)' }), onConditionFailed: onExists }, profileFavoritesWrite(caller.username, 1)];
}

/** Deletes a favorite and uncounts it on the holder's profile; fails with `onAbsent` when there is none. */
export function removeFavoriteWrites(postId: string, holder: { userId: number; username: string }, onAbsent: () => Error): TxWrite[] {
  return [
    { write: tx.delete(keys.favorite(postId, holder.userId), { expression: 'attribute_exists(PK)' }), onConditionFailed: onAbsent },
    profileFavoritesWrite(holder.username, -1),
  ];
}

/** The API's favorite state: whether the caller holds it, and the post's count. */
export function favoriteState(favorited: boolean, post: Pick<PostRecord, 'total_favorites'>) {
  return { favorited, total_favorites: post.total_favorites };
}

class AlreadyRemoved extends Error {}

/** Favorites removed per transaction: two items each, well under DynamoDB's 100. */
const REMOVAL_CHUNK = 25;

/** Removes favorites with their profile counts; one already gone (a redelivery) is skipped, its holder not uncounted twice. */
async function removeChunk(favorites: Item[]): Promise<void> {
  const writes = (favorite: Item) =>
    removeFavoriteWrites(String(favorite.post_id), { userId: Number(favorite.user_id), username: String(favorite.username) }, () => new AlreadyRemoved());
  try {
    await transactWrite(favorites.flatMap(writes));
  } catch (error) {
    if (!(error instanceof AlreadyRemoved)) throw error;
    // Some were removed by an earlier delivery: the others one by one.
    for (const favorite of favorites) {
      try {
        await transactWrite(writes(favorite));
      } catch (single) {
        if (!(single instanceof AlreadyRemoved)) throw single;
      }
    }
  }
}

/**
 * Removes every favorite of a deleted post and lowers each holder's profile total_favorites, by
 * the table's stream consumer (lib/reactions/post-removal.ts): each favorite's delete and its holder's
 * decrement are one transaction conditioned on the favorite existing, so a record delivered again
 * decrements no one twice.
 */
export async function removeFavorites(postId: string): Promise<void> {
  for await (const items of partitionPages(keys.favoritesOf(postId), { attributes: ['post_id', 'user_id', 'username'], consistent: true })) {
    for (let start = 0; start < items.length; start += REMOVAL_CHUNK) await removeChunk(items.slice(start, start + REMOVAL_CHUNK));
  }
}
