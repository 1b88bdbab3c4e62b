import type { Item } from '#lib/db/batch.ts';
import { keyOf, keyString, keys } from '#lib/db/keys.ts';
import { transactWrite, tx, type TxWrite } from '#lib/db/transact.ts';
import { feedRemovalWrites } from '#lib/posts/feed-removals.ts';
import { candidateIndex } from '#lib/slugs/rules.ts';
import { slugFreedWrite, SlugTaken } from '#lib/slugs/tickets.ts';
import { newTagsTotalWrites, newTagWrites, type TagRef } from '#lib/tags/tag.ts';
import { atVersion } from './access.ts';
import { counterWrites } from './counters.ts';
import { postEntries } from './entries.ts';
import { postStatsItem, postTextItem, type PostRecord, type PostSummary } from './post.ts';
import { slugLeftClear, slugLeftWrite } from './renamed.ts';
import { postSummaryItem } from './summary.ts';

// Every change of a post, from create to delete and each count in between, is one transaction
// made here: its items (text, summary, stats, list entries) go from `before` to `after`, with the counters
// of its author and tags. Only the items that change are written, so a count rewrites the small
// stats and entries and never the text.

/** DynamoDB's limit on the items of one TransactWriteItems. */
const TRANSACTION_LIMIT = 100;

const absent = { expression: 'attribute_not_exists(PK)' };
const sameValue = (a: unknown, b: unknown) => (Array.isArray(a) && Array.isArray(b) ? a.length === b.length && a.every((value, i) => value === b[i]) : a === b);

/**
 * Whether two items hold the same values. Field by field, not by serializing: a visit compares a
 * text item of up to 320 KB, whose fields are mostly the very strings that were read.
 */
function same(a: Item | undefined, b: Item | undefined): boolean {
  if (!a || !b) return a === b;
  const names = Object.keys(a);
  return names.length === Object.keys(b).length && names.every((name) => sameValue(a[name], b[name]));
}

/** The condition that a post's stored text still has the `modified` a client read (an edit's own version check). */
const modifiedStill = (modified: string) => ({ expression: '#modified = :modified', names: { '#modified': 'modified' }, values: { ':modified': modified } });

/**
 * The writes that take the post's items from `before` to `after` (null: not existing). The stats
 * item carries the version check of the whole change; a new slug is claimed by its text item.
 * `unchangedSince`: the write of the current text (its put, or its delete on a rename) also checks
 * that the stored post's `modified` is that value. `summary`: the summary of `after`'s text
 * (summarize.ts), which a change that writes the text must bring.
 */
export function postItemWrites(before: PostRecord | null, proposed: PostRecord | null, unchangedSince?: string, summary?: PostSummary): TxWrite[] {
  const writes: TxWrite[] = [];
  const after = proposed && withTextVersion(before, proposed);
  const renamed = before && after && before.slug !== after.slug;
  const summaryPut = (post: PostRecord): TxWrite => {
    if (!summary) throw new Error(`A change that writes the text of post ${post.slug} must bring its summary.`);
    return { write: tx.put(postSummaryItem(post, summary)) };
  };
  if (after && (!before || renamed)) {
    writes.push({ write: tx.put(postTextItem(after), absent), onConditionFailed: () => new SlugTaken(after.slug) }, summaryPut(after), {
      write: tx.put(postStatsItem(after)),
    });
  }
  if (before && (!after || renamed)) {
    writes.push(
      { write: tx.delete(keys.post(before.slug), unchangedSince === undefined ? undefined : modifiedStill(unchangedSince)) },
      { write: tx.delete(keys.postSummary(before.slug)) },
      { write: tx.delete(keys.postStats(before.slug), atVersion(before)) },
    );
    // The slug is free again: a contended create that finds it first free takes it, ticket number 1.
    writes.push(slugFreedWrite('post', before.slug_base, candidateIndex(before.slug_base, before.slug)));
    // A rename records the slug it leaves (lib/posts/renamed.ts); a delete clears the record of the
    // slug it frees, left there by an older rename of another post. Neither item is any other write's.
    writes.push(renamed ? slugLeftWrite(before) : slugLeftClear(before.slug));
  }
  if (before && after && !renamed) {
    if (after.text_version !== before.text_version || unchangedSince !== undefined) {
      writes.push({ write: tx.put(postTextItem(after), unchangedSince === undefined ? undefined : modifiedStill(unchangedSince)) }, summaryPut(after));
    }
    writes.push({ write: tx.put(postStatsItem(after), atVersion(before)) });
  }
  const old = new Map((before ? postEntries(before) : []).map((item) => [keyString(keyOf(item)), item]));
  for (const entry of after ? postEntries(after) : []) {
    const id = keyString(keyOf(entry));
    if (!same(old.get(id), entry)) writes.push({ write: tx.put(entry) });
    old.delete(id);
  }
  for (const entry of old.values()) writes.push({ write: tx.delete(keyOf(entry)) });
  return writes;
}

/** `after` with the version of its text: its own when the text item is (re)written, else the one it keeps. */
function withTextVersion(before: PostRecord | null, after: PostRecord): PostRecord {
  const kept = before && before.slug === after.slug && same(postTextItem(before), postTextItem({ ...after, text_version: before.text_version }));
  return { ...after, text_version: kept ? before.text_version : after.version };
}

export interface PostChange {
  before: PostRecord | null;
  after: PostRecord | null;
  /** Tags the change creates (lib/tags/resolve.ts, resolveTags). */
  createdTags?: TagRef[];
  /** Writes of other items that belong to the same change (a visit). */
  with?: TxWrite[];
  /** An edit based on what a client read: the post's `modified` must still be this value. */
  unchangedSince?: string;
  /** The summary of `after`'s text (summarize.ts): required when the change writes the text. */
  summary?: PostSummary;
}

/**
 * Commits a change as one transaction. Only a change too big for one (a rename that swaps 20 tags
 * for 20 new ones) first creates its new tags on their own: a tag without posts is a state
 * POST /tags makes too, and the post's transaction then counts them like existing tags.
 */
export async function commitPostChange({ before, after, createdTags = [], with: others = [], unchangedSince, summary }: PostChange): Promise<void> {
  const author = (after ?? before)!.author;
  const items = [...others, ...postItemWrites(before, after, unchangedSince, summary), ...feedRemovalWrites(before, after)];
  const writes = [...items, ...counterWrites(author, before, after, createdTags)];
  if (writes.length <= TRANSACTION_LIMIT || createdTags.length === 0) return transactWrite(writes);
  await transactWrite([...createdTags.flatMap((tag) => newTagWrites(tag, 0)), ...newTagsTotalWrites(createdTags)]);
  await transactWrite([...items, ...counterWrites(author, before, after, [])]);
}

/** Every item of a post as it stands, with the summary of its text: what a bulk load writes straight into the table (the bench). */
export function postItems(post: PostRecord, summary: PostSummary): Item[] {
  return [postTextItem(post), postSummaryItem(post, summary), postStatsItem(post), ...postEntries(post)];
}
