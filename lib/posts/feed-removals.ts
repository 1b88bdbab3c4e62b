import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { tableName } from '#lib/config.ts';
import { db } from '#lib/db/client.ts';
import { keys } from '#lib/db/keys.ts';
import { PARTITION_KEY, TTL_ATTRIBUTE } from '#lib/db/table.ts';
import { tx, type TxWrite } from '#lib/db/transact.ts';
import type { PostRecord } from '#lib/posts/post.ts';
import { epochSeconds, isoTimestamp, nowMicros } from '#lib/time.ts';

// A feed's Last-Modified is the newest `modified` of its posts, but a post that leaves a feed
// (deleted, unpublished, or no longer carrying the feed's tag) changes the document without any
// newer `modified` in it. Each such change writes a removal item in its own transaction, so the
// feeds can take the newest removal's time as a change too: If-Modified-Since never answers 304
// for a copy older than a removal. One item per removal (never one shared item), so concurrent
// removals never conflict; one removal counts for every feed (a tag feed may revalidate needlessly).

/** How long the removal items are kept: a client's copy older than this may wrongly get a 304. */
const KEPT_DAYS = 400;

/** Whether the change takes a published post out of a feed: out of all posts, or out of one of its tags. */
function leavesFeed(before: PostRecord | null, after: PostRecord | null): boolean {
  if (!before?.publish) return false;
  if (!after?.publish) return true;
  return before.tag_slugs.some((slug) => !after.tag_slugs.includes(slug));
}

/** The removal item a change of a post adds to its transaction, if it takes the post out of a feed. */
export function feedRemovalWrites(before: PostRecord | null, after: PostRecord | null): TxWrite[] {
  if (!leavesFeed(before, after)) return [];
  const micros = nowMicros();
  const at = isoTimestamp(micros);
  const post = (before ?? after)!;
  return [{ write: tx.put({ ...keys.feedRemoval(at, post.id), removed_at: at, [TTL_ATTRIBUTE]: epochSeconds(micros) + KEPT_DAYS * 86400 }) }];
}

/** The time of the newest removal from the feeds (ISO, as posts' `modified`), if any. One strongly consistent Query. */
export async function latestFeedRemoval(): Promise<string | undefined> {
  const response = await db().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: '#pk = :pk',
      ExpressionAttributeNames: { '#pk': PARTITION_KEY },
      ExpressionAttributeValues: { ':pk': keys.feedRemovals },
      ScanIndexForward: false,
      Limit: 1,
      ConsistentRead: true,
    }),
  );
  const removed = response.Items?.[0]?.removed_at;
  return typeof removed === 'string' ? removed : undefined;
}
