import { searchTableName } from '#lib/config.ts';
import type { Item } from '#lib/db/batch.ts';
import { postingRange } from '#lib/db/keys.ts';
import { partitionPages } from '#lib/db/query.ts';
import { DRAFT_MARK, indexedWord, postingFromItem, type Posting } from './postings.ts';

// Finding posts by their words: one Query per query word, sent in parallel, of the range of
// postings whose word the query word begins, and one of the draft marks (the site's drafts, which
// the postings of words do not tell apart). Its capacity grows with the postings it returns: the
// posts that have such a word, and the drafts, never the published posts of the site.

/** Every posting of the words `word` begins (all pages). */
async function postingsOf(word: string): Promise<Item[]> {
  const items: Item[] = [];
  const { partition, ...sortKeyRange } = postingRange(indexedWord(word));
  for await (const page of partitionPages(partition, { sortKeyRange, table: searchTableName() })) items.push(...page);
  return items;
}

/**
 * The posts that have, for every query word, a word it begins (by the index: a post's words are
 * checked again on its text when it is read), each by its newest posting, a draft's with `publish` false.
 */
export async function findPostings(words: readonly string[]): Promise<Posting[]> {
  const [marks, ...perWord] = await Promise.all([postingsOf(DRAFT_MARK), ...words.map(postingsOf)]);
  const drafts = new Set(marks!.map((item) => String(item.post_id)));
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
  return [...(found ?? new Map<string, Posting>()).values()];
}
