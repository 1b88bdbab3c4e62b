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
  /**
   * A ticket (lib/slugs/tickets.ts) of an operation that lost a race for this base: the candidate
   * tried is the ticket's n-th one from the first free, so that contenders spread out.
   */
  ticket?: number;
}

/** The first free candidate of the base, or with a ticket, the ticket's one from there on. */
export async function firstFreeSlug(search: FreeSlugSearch): Promise<string> {
  const windows = [search.firstWindow];
  const isFree = (n: number): boolean => {
    const slug = slugCandidate(search.base, n);
    if (slug === search.own) return true;
    if (search.reserved?.has(slug)) return false;
    // Beyond the windows read nothing is known: the write's condition on the slug decides.
    const window = windows[Math.floor(n / search.window)];
    return !window?.has(search.keyOf(slug));
  };
  let first = 0;
  for (; !isFree(first); first++) {
    if ((first + 1) % search.window === 0 && windows.length === (first + 1) / search.window) {
      windows.push(await batchGet(candidateKeys(search.base, search.keyOf, search.window, first + 1)));
    }
  }
  if (search.ticket === undefined) return slugCandidate(search.base, first);
  let n = first + search.ticket - 1;
  while (!isFree(n)) n++;
  return slugCandidate(search.base, n);
}
