import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { tableName } from '#lib/config.ts';
import { batchDelete } from '#lib/db/batch.ts';
import { db } from '#lib/db/client.ts';
import { keyOf, keys } from '#lib/db/keys.ts';
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
 * consumer (lib/posts/removal.ts). Its id is never reused, so its visits are garbage; running it
 * again finds nothing to remove. A failure is thrown, so that the stream record is retried.
 */
export async function removeVisits(postId: string): Promise<void> {
  let startKey: Record<string, unknown> | undefined;
  do {
    const response = await db().send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'PK = :pk',
        ExpressionAttributeValues: { ':pk': keys.visitsOf(postId) },
        ProjectionExpression: 'PK, SK',
        ...(startKey ? { ExclusiveStartKey: startKey } : {}),
      }),
    );
    await batchDelete((response.Items ?? []).map(keyOf));
    startKey = response.LastEvaluatedKey;
  } while (startKey);
}
