import { incrementCounter } from '#lib/db/increment.ts';
import { keys } from '#lib/db/keys.ts';
import { RetryableConflict, withRetries } from '#lib/retry.ts';

// decisions.md: creates of one title at once all succeed. Every contender reads the same window
// of candidates and picks the same first free one, so only one of them wins each round. A loser
// takes a ticket: an atomic ADD on a counter of the slug base, so that every loser gets its own
// number and tries its own candidate (lib/slugs/free-slug.ts) instead of queueing behind the others.
// The counter is kept per minute (and expires) so that suffixes stay small long after a burst.

const TICKET_WINDOW_SECONDS = 60;

/** Which slugs a ticket is for: posts and tags are separate namespaces. */
export type SlugKind = 'post' | 'tag';

/** A number, 1 or more, that no other caller for the same base gets in the same minute. */
export function takeSlugTicket(kind: SlugKind, base: string, now = Date.now()): Promise<number> {
  const windowStart = Math.floor(now / 1000 / TICKET_WINDOW_SECONDS) * TICKET_WINDOW_SECONDS;
  return incrementCounter(keys.slugTickets(kind, base, windowStart), { attribute: 'issued', expiresAt: windowStart + 2 * TICKET_WINDOW_SECONDS });
}

/** A write lost its slug to a concurrent one: retried from the reads, with a ticket. */
export class SlugTaken extends RetryableConflict {
  constructor(slug: string) {
    super(`slug ${slug} taken concurrently`);
    this.name = 'SlugTaken';
  }
}

/**
 * Runs a write that claims a slug of `base` until it commits (withRetries). After an attempt lost
 * its slug to a concurrent write, each next attempt is given a ticket for `base` being taken,
 * to await together with its read (so no extra round trip) and choose its candidate with.
 */
export function withSlugTickets<T>(kind: SlugKind, base: string | undefined, attempt: (number: number, ticket: Promise<number | undefined>) => Promise<T>): Promise<T> {
  let contended = false;
  return withRetries(async (number) => {
    try {
      return await attempt(number, contended && base !== undefined ? takeSlugTicket(kind, base) : Promise.resolve(undefined));
    } catch (error) {
      if (error instanceof SlugTaken) contended = true;
      throw error;
    }
  });
}
