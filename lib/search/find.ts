import { searchTableName } from '#lib/config.ts';
import type { Item } from '#lib/db/batch.ts';
import { keys, postingRange } from '#lib/db/keys.ts';
import { partitionPages } from '#lib/db/query.ts';
import { backlogFromItem, type Backlog } from './backlog.ts';
import { indexedWord, postingFromItem, type Posting } from './postings.ts';

// Finding posts by their words: one Query per query word, sent in parallel, of the range of
// postings whose word the query word begins, and one of the index's own partition: the drafts'
// marks (the postings of words do not tell drafts apart) and the backlog statement (backlog.ts).
// Its capacity grows with the postings it returns: the posts that have such a word, and the
// drafts, never the published posts of the site.

/** Every item of `partition` in `sortKeyRange` (all pages). */
async function itemsOf(partition: string, sortKeyRange?: { from: string; to: string }): Promise<Item[]> {
  const items: Item[] = [];
  for await (const page of partitionPages(partition, { ...(sortKeyRange ? { sortKeyRange } : {}), table: searchTableName() })) items.push(...page);
  return items;
}

/** Every posting of the words `word` begins. */
function postingsOf(word: string): Promise<Item[]> {
  const { partition, ...sortKeyRange } = postingRange(indexedWord(word));
  return itemsOf(partition, sortKeyRange);
}

/** What the index says of a query: the posts that match it, and how far behind it runs. */
export interface Found {
  postings: Posting[];
  backlog?: Backlog;
}

/**
 * The posts that have, for every query word, a word it begins (by the index: a post's words are
 * checked again on its text when it is read), each by its newest posting, a draft's with `publish`
 * false; and the index's backlog statement, if it stands.
 */
export async function findPostings(words: readonly string[]): Promise<Found> {
  const [marks, ...perWord] = await Promise.all([itemsOf(keys.indexMarks), ...words.map(postingsOf)]);
  const drafts = new Set<string>();
  let backlog: Backlog | undefined;
  for (const item of marks!) {
    const stated = backlogFromItem(item);
    if (stated) backlog = stated;
    else drafts.add(String(item.post_id));
  }
  let found: Map<string, Posting> | undefined;
  for (const items of perWord) {
    const these = new Map<string, Posting>();
    for (const item of items) {
      const posting = postingFromItem(item, drafts);
      if (found && !found.has(posting.post_id)) continue;
      const known = these.get(posting.post_id);
      if (!known || known.text_version < posting.text_version) these.set(posting.post_id, posting);
    }
    if (found) for (const [id, posting] of these) if (found.get(id)!.text_version > posting.text_version) these.set(id, found.get(id)!);
    found = these;
  }
  return { postings: [...(found ?? new Map<string, Posting>()).values()], ...(backlog ? { backlog } : {}) };
}
