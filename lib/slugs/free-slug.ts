import { batchGet, type BatchResult } from '#lib/db/batch.ts';
import type { Key } from '#lib/db/keys.ts';
import { slugCandidate } from './rules.ts';
import { takeSlugTicket, type SlugKind } from './tickets.ts';

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
   * Take a ticket (lib/slugs/tickets.ts) for the first free candidate, so that writes racing for
   * the same base spread over distinct candidates: one UpdateItem after the read. Given only once
   * a claim was lost (SlugContention).
   */
  tickets?: SlugKind | undefined;
}

/**
 * The first free candidate of the base; with tickets, the ticket's: the first free one for number 1,
 * else that many places on (or the next one the reads do not show taken).
 */
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
  if (!search.tickets || slugCandidate(search.base, first) === search.own) return slugCandidate(search.base, first);
  let n = first + (await takeSlugTicket(search.tickets, search.base, first)) - 1;
  while (!isFree(n)) n++;
  return slugCandidate(search.base, n);
}
