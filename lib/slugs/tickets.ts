import { incrementCounter } from '#lib/db/increment.ts';
import { keys, type Key } from '#lib/db/keys.ts';
import { tx, type TxWrite } from '#lib/db/transact.ts';

// Creates of one title at once all succeed (docs/api.md, Slugs). Every contender reads the same
// window of candidates and sees the same first free one; were they all to try it, one would win per
// round and the others would queue for it. So after its read, a create takes a ticket for the
// candidate it found first free: an atomic ADD on a counter of that (base, candidate), one number
// per taker.
// Number 1 tries that candidate, number n the one n - 1 places on (lib/slugs/free-slug.ts): one
// round for all. Alone, a create always holds number 1, so slugs stay "the first free one". The
// counters are kept per minute (and expire by TTL); freeing a slug resets its candidate's counter,
// so that a create right after a delete takes the freed slug again.

const TICKET_WINDOW_SECONDS = 60;

/** Which slugs a ticket is for: posts and tags are separate namespaces. */
export type SlugKind = 'post' | 'tag';

function ticketKey(kind: SlugKind, base: string, candidate: number, now: number): { key: Key; windowStart: number } {
  const windowStart = Math.floor(now / 1000 / TICKET_WINDOW_SECONDS) * TICKET_WINDOW_SECONDS;
  return { key: keys.slugTickets(kind, base, candidate, windowStart), windowStart };
}

/** A number, 1 or more, that no other taker for the same base and first free candidate gets in the same minute. */
export function takeSlugTicket(kind: SlugKind, base: string, candidate: number, now = Date.now()): Promise<number> {
  const { key, windowStart } = ticketKey(kind, base, candidate, now);
  return incrementCounter(key, { attribute: 'issued', expiresAt: windowStart + 2 * TICKET_WINDOW_SECONDS });
}

/** Resets the counter of a candidate whose slug a change frees (inside its transaction). */
export function slugFreedWrite(kind: SlugKind, base: string, candidate: number, now = Date.now()): TxWrite {
  return { write: tx.delete(ticketKey(kind, base, candidate, now).key) };
}
