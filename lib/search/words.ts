// The words of the search rule (docs/api.md, endpoint 10's `q`): after NFKD, combining marks are
// removed and the text lower-cased; words are the runs of letters and digits. A post matches a
// query when every query word begins some word of its title, description, keywords or
// meta_description.

const MARKS = /\p{M}+/gu;
const WORD = /[\p{L}\p{N}]+/gu;

/**
 * The limits of a query (docs/api.md, "Search"): what a search reads is bounded by them, whatever
 * `q` holds. `q` is read up to `length` characters; a word counts by its first `wordLength`
 * (the index holds no more of a word); of more than `words` words the longest are kept.
 */
export const QUERY_LIMITS = { length: 1_000, words: 8, wordLength: 64 } as const;

/** The words of `text`, in order, repeats included. */
export function wordsOf(text: string): string[] {
  return text.normalize('NFKD').replace(MARKS, '').toLowerCase().match(WORD) ?? [];
}

/** The fields of a post that a search reads. */
export interface SearchableText {
  title: string;
  description: string;
  keywords: string | null;
  meta_description: string | null;
}

/** The distinct words of a post's searchable fields. */
export function postWords(post: SearchableText): Set<string> {
  const words = new Set<string>();
  for (const field of [post.title, post.description, post.keywords ?? '', post.meta_description ?? '']) {
    for (const word of wordsOf(field)) words.add(word);
  }
  return words;
}

/** The first `length` code points of `text` (never half of a surrogate pair). */
export function codePoints(text: string, length: number): string {
  const characters = Array.from(text);
  return characters.length <= length ? text : characters.slice(0, length).join('');
}

/**
 * The words a query needs matched, within QUERY_LIMITS: each cut to its first `wordLength`
 * characters; a word that begins another query word is dropped, since any post word the longer
 * one begins, the shorter begins too; of more than `words` words, the longest (the most telling)
 * are kept, in the order given. Empty when `q` has no word.
 */
export function queryWords(q: string | undefined): string[] {
  const distinct = [...new Set(wordsOf(codePoints(q ?? '', QUERY_LIMITS.length)).map((word) => codePoints(word, QUERY_LIMITS.wordLength)))];
  const needed = distinct.filter((word) => !distinct.some((other) => other !== word && other.startsWith(word)));
  if (needed.length <= QUERY_LIMITS.words) return needed;
  const kept = new Set([...needed].sort((a, b) => Array.from(b).length - Array.from(a).length).slice(0, QUERY_LIMITS.words));
  return needed.filter((word) => kept.has(word));
}

/** Whether every query word begins some word of the post. */
export function matchesQuery(words: ReadonlySet<string>, query: readonly string[]): boolean {
  return query.every((wanted) => {
    if (words.has(wanted)) return true;
    for (const word of words) if (word.startsWith(wanted)) return true;
    return false;
  });
}
