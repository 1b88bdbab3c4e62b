import { batchDelete } from '#lib/db/batch.ts';
import { keyOf, keys } from '#lib/db/keys.ts';
import { partitionPages } from '#lib/db/query.ts';
import { PARTITION_KEY, SORT_KEY } from '#lib/db/table.ts';
import { tx, type TxWrite } from '#lib/db/transact.ts';
import { isoTimestamp } from '#lib/time.ts';

// The visit entity: one item per (post, user) that has seen the post, keyed by the post's stable
// id so that it survives renames. It makes total_visitors count each reader once.

/** Stores a first visit; its condition fails (with `onVisited`'s error) when the user has been here. */
export function firstVisitWrite(postId: string, userId: number, onVisited: () => Error): TxWrite {
  return {
    write: tx.put({ ...keys.visit(postId, userId), post_id: postId, user_id: userId, created: isoTimestamp() }, { expression: 'attribute_not_exists(PK)' }),
    onConditionFailed: onVisited,
  };
}

/**
 * Removes every visit of a post, page by page: after the post's deletion, by the table's stream
 * consumer (lib/reactions/post-removal.ts). Its id is never reused, so its visits are garbage; running it
 * again finds nothing to remove. A failure is thrown, so that the stream record is retried.
 */
export async function removeVisits(postId: string): Promise<void> {
  for await (const items of partitionPages(keys.visitsOf(postId), { attributes: [PARTITION_KEY, SORT_KEY] })) await batchDelete(items.map(keyOf));
}
