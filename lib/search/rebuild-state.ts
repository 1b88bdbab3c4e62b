import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { searchTableName } from '#lib/config.ts';
import { batchGet } from '#lib/db/batch.ts';
import { db } from '#lib/db/client.ts';
import { keys } from '#lib/db/keys.ts';
import { nowMs } from '#lib/time.ts';

// The state of the index's rebuild (reindex.ts), one item in the search table (`#REINDEX`/`STATE`):
// the rebuild resumes from it, and the stream consumer reads it to know whether a rebuild may have
// missed a post it sees renamed (postings.ts).

export type ReindexPhase = 'count' | 'put' | 'sweep' | 'done';

export interface ReindexProgress {
  phase: ReindexPhase;
  /** When the rebuild began (epoch ms): postings written before it (less a margin) are swept. */
  started: number;
  /** The posts' text items in the table (counted in the first step). */
  total: number;
  posts: number;
  postingsWritten: number;
  postingsDeleted: number;
  /** Where the scan of the current step goes on (its last page's LastEvaluatedKey). */
  cursor?: Record<string, unknown>;
  finished?: number;
}

/** How long a stream record lives: a rename's record may reach the consumer this long after it. */
const STREAM_RECORD_LIFETIME_MS = 24 * 60 * 60 * 1000;

/** The rebuild's state, read consistently (a batch read: the consumer is granted no GetItem); undefined before the first rebuild. */
export async function readRebuild(): Promise<ReindexProgress | undefined> {
  const key = keys.reindexState();
  const item = (await batchGet([key], undefined, { table: searchTableName() })).get(key);
  return item ? (item.progress as ReindexProgress) : undefined;
}

export async function saveRebuild(progress: ReindexProgress): Promise<void> {
  await db().send(new PutCommand({ TableName: searchTableName(), Item: { ...keys.reindexState(), progress } }));
}

/**
 * Whether a rebuild may have missed a post renamed now: its scan passes each key once, so a post
 * whose text moved to a key the scan had passed is not written by it. That holds while a rebuild
 * runs, and for a rename's record handled late, until no record of its time can still come.
 */
export async function rebuildMayMissRenames(): Promise<boolean> {
  const state = await readRebuild();
  if (!state) return false;
  return state.phase !== 'done' || (state.finished ?? 0) > nowMs() - STREAM_RECORD_LIFETIME_MS;
}
