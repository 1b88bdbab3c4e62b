import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { batchDelete } from '../db/batch.ts';
import { db } from '../db/client.ts';
import { keys } from '../db/keys.ts';
import { transactWrite, tx } from '../db/transact.ts';
import { tableName } from '../config.ts';
import { NotFound } from '../errors.ts';
import { describeError, log } from '../log.ts';
import { withRetries } from '../retry.ts';
import { couldBeSlug } from '../slug.ts';
import type { ReadAsCaller } from '../auth.ts';
import { counterWrites } from './counters.ts';
import { atVersion, ownedPost } from './ownership.ts';
import { storedPost } from './read.ts';

// Deleting a post: the post and its counters in one transaction, then its visits.

export async function deletePost(readAsCaller: ReadAsCaller, slug: string): Promise<void> {
  if (!couldBeSlug(slug)) throw new NotFound();
  const removed = await withRetries(async () => {
    const { caller: who, read } = await readAsCaller([keys.post(slug)]);
    const post = ownedPost(storedPost(read, slug), who);
    await transactWrite([
      { write: tx.delete(keys.post(post.slug), atVersion(post.version)) },
      ...counterWrites(post.author, post, null, []),
    ]);
    return post;
  });
  // Only a post someone has viewed has visit items to remove.
  if (removed.total_visitors > 0) await removeVisits(removed.id);
}

/** Visits of a deleted post are garbage (its id is never reused); failing to remove them is logged. */
async function removeVisits(postId: string): Promise<void> {
  try {
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
      await batchDelete((response.Items ?? []).map((item) => ({ PK: String(item.PK), SK: String(item.SK) })));
      startKey = response.LastEvaluatedKey;
    } while (startKey);
  } catch (error) {
    log.warn('visit cleanup failed', { postId, ...describeError(error) });
  }
}
