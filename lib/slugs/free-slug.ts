import { batchGet, type BatchResult } from '#lib/db/batch.ts';
import type { Key } from '#lib/db/keys.ts';
import { slugCandidate } from './rules.ts';

// Slugs are claimed by item keys. To find `base`, `base-1`, ... that is free, the keys of a
// window of candidates are read together; usually the first window answers in the same
// BatchGetItem as the operation's other reads.

export function candidateKeys(base: string, keyOf: (slug: string) => Key, window: number, from = 0): Key[] {
  return Array.from({ length: window }, (_, i) => keyOf(slugCandidate(base, from + i)));
}

export interface FreeSlugSearch {
  base: string;
  keyOf: (slug: string) => Key;
  window: number;
  /** The result of a read that included `candidateKeys(base, keyOf, window)`. */
  firstWindow: BatchResult;
  /** Slugs already given to other items of the same request. */
  reserved?: Set<string>;
  /** The slug the item being renamed holds now: it counts as free. */
  own?: string;
}

export async function firstFreeSlug(search: FreeSlugSearch): Promise<string> {
  let window = search.firstWindow;
  for (let start = 0; ; start += search.window) {
    if (start > 0) window = await batchGet(candidateKeys(search.base, search.keyOf, search.window, start));
    for (let n = start; n < start + search.window; n++) {
      const slug = slugCandidate(search.base, n);
      if (slug === search.own) return slug;
      if (!window.has(search.keyOf(slug)) && !search.reserved?.has(slug)) return slug;
    }
  }
}
