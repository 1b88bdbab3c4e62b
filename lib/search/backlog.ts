import { searchTableName } from '#lib/config.ts';
import { batchDelete, batchPut, type Item } from '#lib/db/batch.ts';
import { keys } from '#lib/db/keys.ts';

// The search index's backlog: how far behind the table's stream its consumer is. A search always
// reads the list's entries changed in the last FRESH_MS (lib/lists/search.ts) and checks their
// words on their text, so a post is found before the index holds it; a burst of writes can put
// the index further behind than that (DynamoDB Local writes some 10,000 postings a second, and a
// deployed partition key takes 1,000 WCU a second). The consumer then says so: at the start of a
// batch whose oldest change of a text is older than BACKLOG_AFTER_MS (by the text's `modified`:
// DynamoDB Local dates stream records to the minute), it writes when that change was made, and
// once a batch ends with its newest change recent again, it deletes what it wrote. A search
// reads the statement with the drafts' marks (one Query of the index's own partition), beside
// the list's entries changed in the last minute (lib/lists/search.ts, BACKLOG_WINDOW_MS), and,
// while it stands, checks on their text those changed since the index fell behind, not only those
// of the last FRESH_MS: a search stays complete through a burst, in the same round trips.

/** A batch whose oldest change is older than this says the index lags (half the fresh window). */
export const BACKLOG_AFTER_MS = 5_000;
/**
 * A lagging consumer states its backlog again at every batch (a second or so apart): a statement
 * older than this is not trusted (a consumer that caught up and went idle before withdrawing it,
 * or that stopped), and a search reads its fresh window alone.
 */
export const BACKLOG_VALID_MS = 30_000;
/** Stream records tell their creation time in whole seconds: a search reaches back this much further. */
export const BACKLOG_MARGIN_MS = 2_000;

/** What the consumer said: changes from `since` on may not be indexed yet (epoch ms), said at `at`. */
export interface Backlog {
  since: number;
  at: number;
}

/** The backlog statement read back (from the index's partition), or undefined for any other item. */
export function backlogFromItem(item: Item): Backlog | undefined {
  const key = keys.indexBacklog();
  if (item.PK !== key.PK || item.SK !== key.SK) return undefined;
  return { since: Number(item.since), at: Number(item.at) };
}

/**
 * From when a search must read a list's changed entries beyond its fresh window, or undefined
 * when the index is not known to lag (no statement, one older than BACKLOG_VALID_MS, or one within the window).
 */
export function unindexedSince(backlog: Backlog | undefined, freshFrom: number, now: number): number | undefined {
  if (!backlog || now - backlog.at > BACKLOG_VALID_MS) return undefined;
  const since = backlog.since - BACKLOG_MARGIN_MS;
  return since < freshFrom ? since : undefined;
}

/** Whether this process stated a backlog it has not withdrawn (one consumer per shard at a time). */
let stated = false;

/** At a batch's start: states the backlog when its oldest text change (epoch ms) is older than BACKLOG_AFTER_MS. */
export async function stateBacklog(oldestMs: number, now = Date.now()): Promise<void> {
  if (now - oldestMs <= BACKLOG_AFTER_MS) return;
  await batchPut([{ ...keys.indexBacklog(), since: oldestMs, at: now }], searchTableName());
  stated = true;
}

/** At a batch's end: withdraws this process's statement once the batch's newest change (epoch ms) is recent. */
export async function withdrawBacklog(newestMs: number, now = Date.now()): Promise<void> {
  if (!stated || now - newestMs > BACKLOG_AFTER_MS) return;
  await batchDelete([keys.indexBacklog()], searchTableName());
  stated = false;
}
