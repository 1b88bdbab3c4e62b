import { searchTableName } from '#lib/config.ts';
import { batchGet } from '#lib/db/batch.ts';
import { keys, termPartition } from '#lib/db/keys.ts';
import { partitionHead } from '#lib/db/query.ts';
import { postingFromItem, type Posting } from './postings.ts';
import { postingMatches, queryTerm, type QueryTerm } from './terms.ts';

// Finding posts by their words: each query word is one term (terms.ts), whose postings are one
// partition of the search table in creation order. A search reads each word's postings newest
// first, a bounded number of them (its window), in parallel, and then knows exactly which posts
// newer than the window's end have the word. What it reads is bounded by the query's words,
// never by the site or the posts' sizes.

/**
 * The postings a page of a search reads, shared by its words: a word of a one-word query reads
 * this many, each of n words the n-th part. At most about 280 bytes each (terms.ts bounds the
 * words a posting names): some 24 RCU in all.
 */
export const POSTINGS_PER_PAGE = 700;

/** The window of one query word: the posts of its newest postings that have the word. */
export interface Window {
  query: QueryTerm;
  /** By post id: the postings read whose post has the word. */
  postings: Map<string, Posting>;
  /**
   * The key (the post's creation key) of the last posting read, when the term has more postings
   * past it: nothing older than it is known of this word. Undefined when the window holds every
   * posting of the term below where it started.
   */
  reach?: string;
}

/** How many postings each of `words` words reads. */
export const windowSize = (words: number) => Math.max(1, Math.floor(POSTINGS_PER_PAGE / Math.max(1, words)));

/** The window of `word`: its term's newest postings below `below` (a creation key), at most `limit`. */
export async function readWindow(word: string, limit: number, below?: string): Promise<Window> {
  const query = queryTerm(word);
  const { items, more } = await partitionHead(termPartition(query.term), limit, { table: searchTableName(), ...(below === undefined ? {} : { below }) });
  const postings = new Map<string, Posting>();
  for (const item of items) {
    const posting = postingFromItem(item);
    if (postingMatches(query, posting.words)) postings.set(posting.post_id, posting);
  }
  return { query, postings, ...(more && items.length > 0 ? { reach: String(items.at(-1)!.SK) } : {}) };
}

/** A post whose posting of a query word is read to tell whether it has the word: its id, its creation key (`created#id`), the word. */
export interface PostingCheck {
  id: string;
  creation: string;
  word: string;
}

/**
 * Whether posts have a query word, by their own postings (where a window did not reach them):
 * one BatchGetItem of the postings `checks` name. The answer by post id and word.
 */
export async function havePostings(checks: readonly PostingCheck[]): Promise<(id: string, word: string) => boolean> {
  const keyOf = ({ id, creation, word }: PostingCheck) => keys.posting(queryTerm(word).term, creation.slice(0, creation.length - id.length - 1), id);
  const read = checks.length > 0 ? await batchGet(checks.map(keyOf), undefined, { consistent: false, table: searchTableName() }) : new Map();
  const found = new Set(
    checks.flatMap((check) => {
      const item = read.get(keyOf(check));
      return item && postingMatches(queryTerm(check.word), postingFromItem(item).words) ? [`${check.id}\u0000${check.word}`] : [];
    }),
  );
  return (id, word) => found.has(`${id}\u0000${word}`);
}
