import { QUERY_LIMITS, codePoints, postWords, type SearchableText } from './words.ts';

// The terms of the search index (docs/data-model.md, "The search index"). A post is indexed by
// the prefixes of its words at a few lengths, the levels: a word of 11 letters by its first 1, 2,
// 4 and 8. A query word is looked up as the term of the longest level it reaches (`lambda`:
// `lamb`), and when it is longer than that level, each posting names the post's words that go on
// past the term (`lambd` for `lambda`, as far as the next level): so every query word is one term,
// one partition of the index, read newest post first, and its matches are exact. The levels
// 1, 2, 4, 8, 16, 32, 64 give a post about 1.7 terms per distinct word; under a term of 2
// characters a posting names at most an alphabet of third characters, under longer ones the few
// words that share so long a beginning. A posting names at most WORDS_BYTES of them (the shortest
// first), so that what a search reads stays bounded whatever a post holds: a post with more words
// past one term than that (a long text of one script without spaces, whose runs are its words) is
// found by those it names.

/** The prefix lengths a word is indexed by, up to the longest word length the index holds. */
export const TERM_LEVELS = [1, 2, 4, 8, 16, 32, QUERY_LIMITS.wordLength] as const;

/** The most a posting's `words` holds, in UTF-8 bytes with the spaces between them. */
export const WORDS_BYTES = 128;

/** The longest level at most `length` characters long. */
function levelFor(length: number): number {
  return [...TERM_LEVELS].reverse().find((level) => level <= length)!;
}

/** The level after `level` (or `level` itself for the last one). */
function nextLevel(level: number): number {
  return TERM_LEVELS.find((other) => other > level) ?? level;
}

/** How a query word is looked up: its term, and the word itself when a posting's `words` must show it (a word past the term's level). */
export interface QueryTerm {
  term: string;
  /** The query word when it is longer than its term: a posting matches when one of its `words` begins with it. */
  within?: string;
}

/** The term a query word (cut as queryWords cuts it) is looked up by. */
export function queryTerm(word: string): QueryTerm {
  const length = Array.from(word).length;
  const term = codePoints(word, levelFor(length));
  return term === word ? { term } : { term, within: word };
}

/** Whether a posting of `query`'s term, with these `words`, is of a post that has a word `query`'s word begins. */
export function postingMatches(query: QueryTerm, words: readonly string[] | undefined): boolean {
  return query.within === undefined || (words ?? []).some((word) => word.startsWith(query.within!));
}

/** The shortest first, then in code point order. */
const shortestFirst = (a: string, b: string) => a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);

/** As many of `words` (the shortest first) as fit in WORDS_BYTES with a space between each two. */
function namedWords(words: Iterable<string>): string[] {
  const named: string[] = [];
  let bytes = -1;
  for (const word of [...words].sort(shortestFirst)) {
    bytes += 1 + Buffer.byteLength(word);
    if (bytes > WORDS_BYTES) break;
    named.push(word);
  }
  return named;
}

/**
 * A post's terms, each with the post's words that go on past it, cut at the next level less one
 * character (what a query word shorter than that level needs to be told apart), at most
 * WORDS_BYTES of them, the shortest first. A word counts by its first QUERY_LIMITS.wordLength
 * characters, as a query word does.
 */
export function postTerms(post: SearchableText): Map<string, string[]> {
  const terms = new Map<string, Set<string>>();
  for (const whole of postWords(post)) {
    const word = codePoints(whole, QUERY_LIMITS.wordLength);
    const length = Array.from(word).length;
    for (const level of TERM_LEVELS) {
      if (level > length) break;
      const term = codePoints(word, level);
      const words = terms.get(term) ?? new Set<string>();
      terms.set(term, words);
      if (length > level && nextLevel(level) - 1 > level) words.add(codePoints(word, nextLevel(level) - 1));
    }
  }
  return new Map([...terms].map(([term, words]) => [term, namedWords(words)]));
}
