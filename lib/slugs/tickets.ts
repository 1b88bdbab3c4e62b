import { incrementCounter } from '#lib/db/increment.ts';
import { keys, type Key } from '#lib/db/keys.ts';
import { tx, type TxWrite } from '#lib/db/transact.ts';
import { RetryableConflict } from '#lib/retry.ts';

// Creates of one title at once all succeed (docs/api.md, Slugs). A write claims the first free candidate it read
// straight away (read, then the transaction: two round trips), which is all a lone create needs.
// When that claim is lost (SlugTaken: another write took the slug in between), the title is
// contended: every contender re-reads the same window and would see the same first free one, so
// that each round one would win and the others queue again. So from then on the operation takes a
// ticket for the candidate it found first free: an atomic ADD on a counter of that (base,
// candidate), one number per taker. Number 1 tries that candidate, number n the one n - 1 places
// on (lib/slugs/free-slug.ts): one more round for all of them. The counters are kept per minute
// (and expire by TTL); freeing a slug resets its candidate's counter, so that a create right after
// a delete takes the freed slug again even under contention.

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

/** The write claiming a new slug found it taken: a concurrent write claimed it since the read. */
export class SlugTaken extends RetryableConflict {
  constructor(slug: string) {
    super(`slug ${slug} taken since the read`);
    this.name = 'SlugTaken';
  }
}

/**
 * Whether an operation that claims a slug has met contention: none at first (the first free
 * candidate is claimed directly); once one of its claims was lost, its later attempts take tickets.
 */
export class SlugContention {
  private contended = false;

  constructor(private readonly kind: SlugKind) {}

  /** What `firstFreeSlug` takes as `tickets`: the kind once contended, else none. */
  get tickets(): SlugKind | undefined {
    return this.contended ? this.kind : undefined;
  }

  /** The claiming write, noting a lost claim for the next attempt. */
  async claim<T>(write: Promise<T>): Promise<T> {
    try {
      return await write;
    } catch (error) {
      if (error instanceof SlugTaken) this.contended = true;
      throw error;
    }
  }
}
