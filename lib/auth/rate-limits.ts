import { createHash } from 'node:crypto';
import type { RateLimitSetting } from '#lib/config.ts';
import type { Item } from '#lib/db/batch.ts';
import { counterIncrement, incrementCounter } from '#lib/db/increment.ts';
import { keys, type Key } from '#lib/db/keys.ts';
import { TTL_ATTRIBUTE } from '#lib/db/table.ts';
import { tx, type TxWrite } from '#lib/db/transact.ts';
import { Throttled } from '#lib/errors.ts';

// Fixed-window counters in the table, shared by every function instance. Each window is an item
// of its own (its start is in the key), so a new window starts from nothing without a reset, and
// counting is DynamoDB's atomic ADD: exact under concurrent requests. The TTL removes an item once
// its window has passed; DynamoDB Local never does, so reads treat an expired item as absent.

/** One counter: which limit, what it counts, in which window. */
export interface Counter {
  key: Key;
  setting: RateLimitSetting;
  /** Epoch second at which the window ends (and the item may be deleted). */
  endsAt: number;
}

/**
 * The counter of `limit` for `parts` (an address, a username, both) in the window holding `now`.
 * The parts are digested: the key stays short and fixed-size whatever a client sends.
 */
export function counterFor(limit: string, parts: string[], setting: RateLimitSetting, now: number): Counter {
  const subject = createHash('sha256').update(JSON.stringify(parts)).digest('hex');
  const windowStart = Math.floor(now / setting.windowSeconds) * setting.windowSeconds;
  return { key: keys.rateCounter(limit, subject, windowStart), setting, endsAt: windowStart + setting.windowSeconds };
}

/** The count of a counter's item as read; an absent or expired item counts nothing. */
export function countOf(item: Item | undefined, now: number): number {
  if (!item || Number(item[TTL_ATTRIBUTE]) <= now) return 0;
  return Number(item.count ?? 0);
}

/** The 429 for counters whose count has reached their limit (the longest wait), or null when none has. */
export function exhausted(counts: { counter: Counter; count: number }[], now: number): Throttled | null {
  const waits = counts.filter(({ counter, count }) => count >= counter.setting.max).map(({ counter }) => counter.endsAt - now);
  return waits.length > 0 ? new Throttled(Math.max(...waits)) : null;
}

const increment = (counter: Counter) => ({ attribute: 'count', expiresAt: counter.endsAt });

/** Adds one to a counter, inside a transaction. */
export function incrementWrite(counter: Counter): TxWrite {
  return { write: tx.update(counter.key, counterIncrement(increment(counter))) };
}

/** Removes a counter (a successful login clears its pair's failures), inside a transaction. */
export function clearWrite(counter: Counter): TxWrite {
  return { write: tx.delete(counter.key) };
}

/** Adds one to a counter and returns its new count: the order of this event in its window. */
export function incrementAndCount(counter: Counter): Promise<number> {
  return incrementCounter(counter.key, increment(counter));
}
