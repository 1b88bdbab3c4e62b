// The words of the search rule (docs/api.md, endpoint 10's `q`): after NFKD, combining marks are
// removed and the text lower-cased; words are the runs of letters and digits. A post matches a
// query when every query word begins some word of its title, description, keywords or
// meta_description.

const MARKS = /\p{M}+/gu;
const WORD = /[\p{L}\p{N}]+/gu;

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

/**
 * The words a query needs matched: a word that begins another query word is dropped, since any post
 * word the longer one begins, the shorter begins too. Empty when `q` has no word.
 */
export function queryWords(q: string | undefined): string[] {
  const distinct = [...new Set(wordsOf(q ?? ''))];
  return distinct.filter((word) => !distinct.some((other) => other !== word && other.startsWith(word)));
}

/** Whether every query word begins some word of the post. */
export function matchesQuery(words: ReadonlySet<string>, query: readonly string[]): boolean {
  return query.every((wanted) => {
    if (words.has(wanted)) return true;
    for (const word of words) if (word.startsWith(wanted)) return true;
    return false;
  });
}
