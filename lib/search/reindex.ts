import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { searchTableName, tableName } from '#lib/config.ts';
import type { Item } from '#lib/db/batch.ts';
import { db } from '#lib/db/client.ts';
import { keys } from '#lib/db/keys.ts';
import { scanCount, scanPage } from '#lib/db/scan.ts';
import { withBudget } from '#lib/retry.ts';
import { nowMs } from '#lib/time.ts';
import { applyPostingChange, fullPostings, indexedPost } from './postings.ts';
import { readRebuild, saveRebuild, type ReindexProgress } from './rebuild-state.ts';

// The operator's rebuild of the search index from the table (`npm run admin -- reindex`): after
// a lost index, a change of the term rules, or a restore from a backup. It runs beside the API and
// the stream's consumer, and in three steps, each resumable from the state it keeps in the search
// table (`#REINDEX`/`STATE`):
// 1. count: the posts' text items, for the progress;
// 2. put: every post's postings, written as the consumer writes a create's (applyPostingChange:
//    put, then checked against the post's current text and brought to it if it moved);
// 3. sweep: every posting written before the rebuild began (`written_at`, less a minute for clocks
//    that differ) is one that no post's current text wrote again: a term a post lost, a post
//    gone, a rule that changed. Deleted, conditioned on that, so that one the consumer writes meanwhile stays.
// Searches stay correct throughout: a search checks every post it shows as it reads it (a draft
// or a deleted post is never shown), and until the sweep the old postings stand beside the new.
// Writes are held to `writesPerSecond`.

export interface ReindexOptions {
  /** The most postings written (put or deleted) per second. */
  writesPerSecond: number;
  /** Start over even when a rebuild was left unfinished (else it resumes). */
  restart?: boolean;
  /** Told after every page of every step. */
  onProgress?: (progress: ReindexProgress) => void;
  /** Items a scan call reads: what one page holds before it is written and saved. */
  pageSize?: number;
}

/** Writers' clocks may differ this much: a posting written up to this long before the rebuild began survives its sweep. */
export const SWEEP_MARGIN_MS = 60_000;

/** The default of `writesPerSecond` (REINDEX_WRITES_PER_SECOND): a few percent of what an on-demand table takes at once. */
export const DEFAULT_REINDEX_WRITES_PER_SECOND = 500;

const TEXT_ATTRIBUTES = ['PK', 'SK', 'id', 'author', 'author_id', 'created', 'slug', 'text_version', 'title', 'description', 'keywords', 'meta_description'];
const TEXT_ITEMS = { expression: 'SK = :post AND begins_with(PK, :prefix)', values: { ':post': keys.post('').SK, ':prefix': keys.post('').PK } };

/** Holds writes to a rate: waits before `count` more writes until they fit in the second's allowance. */
export class WriteRate {
  private available: number;
  private last = nowMs();

  constructor(private readonly perSecond: number) {
    this.available = perSecond;
  }

  async take(count: number): Promise<void> {
    for (;;) {
      const now = nowMs();
      this.available = Math.min(this.perSecond, this.available + ((now - this.last) / 1000) * this.perSecond);
      this.last = now;
      if (this.available >= Math.min(count, this.perSecond)) {
        this.available -= count;
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, Math.ceil(((Math.min(count, this.perSecond) - this.available) / this.perSecond) * 1000)));
    }
  }
}

/**
 * Rebuilds the search index, resuming an unfinished rebuild unless `restart`. Resolves with the
 * final progress (phase `done`).
 */
export async function reindex(options: ReindexOptions): Promise<ReindexProgress> {
  const pageSize = options.pageSize ?? 100;
  const rate = new WriteRate(options.writesPerSecond);
  const saved = options.restart ? undefined : await readRebuild();
  let progress: ReindexProgress =
    saved && saved.phase !== 'done' ? saved : { phase: 'count', started: nowMs(), total: 0, posts: 0, postingsWritten: 0, postingsDeleted: 0 };
  const step = async (next: Partial<ReindexProgress>) => {
    // The cursor is the current page's: a step that names none starts its scan from the top.
    const rest = { ...progress };
    delete rest.cursor;
    progress = { ...rest, ...next };
    await saveRebuild(progress);
    options.onProgress?.(progress);
  };
  await saveRebuild(progress);
  options.onProgress?.(progress);

  if (progress.phase === 'count') {
    await step({ phase: 'put', total: await scanCount({ table: tableName(), filter: TEXT_ITEMS }) });
  }
  while (progress.phase === 'put') {
    const page = await scanPage({ table: tableName(), filter: TEXT_ITEMS, attributes: TEXT_ATTRIBUTES, limit: pageSize, consistent: true }, progress.cursor);
    let written = 0;
    for (const item of page.items) {
      const post = indexedPost(item);
      if (!post) continue;
      const change = fullPostings(post);
      await rate.take(change.puts.length);
      // Each post under a retry budget of its own, as each stream record is.
      await withBudget(() => applyPostingChange(change));
      written += change.puts.length;
    }
    await step({
      posts: progress.posts + page.items.length,
      postingsWritten: progress.postingsWritten + written,
      ...(page.next ? { cursor: page.next } : { phase: 'sweep' }),
    });
  }
  while (progress.phase === 'sweep') {
    const before = progress.started - SWEEP_MARGIN_MS;
    const page = await scanPage(
      {
        table: searchTableName(),
        filter: {
          expression: 'PK <> :state AND (attribute_not_exists(#at) OR #at < :before)',
          names: { '#at': 'written_at' },
          values: { ':state': keys.reindexState().PK, ':before': before },
        },
        attributes: ['PK', 'SK'],
        limit: pageSize * 10,
      },
      progress.cursor,
    );
    let deleted = 0;
    for (const item of page.items) {
      await rate.take(1);
      if (await sweep(item, before)) deleted += 1;
    }
    await step({ postingsDeleted: progress.postingsDeleted + deleted, ...(page.next ? { cursor: page.next } : { phase: 'done', finished: nowMs() }) });
  }
  return progress;
}

/** Deletes a posting not written since `before`; false when one was written since (the consumer's, meanwhile). */
async function sweep(item: Item, before: number): Promise<boolean> {
  try {
    await withBudget(() =>
      db().send(
        new DeleteCommand({
          TableName: searchTableName(),
          Key: { PK: item.PK, SK: item.SK },
          ConditionExpression: 'attribute_not_exists(#at) OR #at < :before',
          ExpressionAttributeNames: { '#at': 'written_at' },
          ExpressionAttributeValues: { ':before': before },
        }),
      ),
    );
    return true;
  } catch (error) {
    if ((error as { name?: string }).name === 'ConditionalCheckFailedException') return false;
    throw error;
  }
}
