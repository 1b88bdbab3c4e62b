import type { Caller } from '#lib/auth/tokens.ts';
import { counterFor, type Counter } from '#lib/auth/rate-limits.ts';
import { commentRateLimits } from '#lib/config.ts';
import { counterIncrement } from '#lib/db/increment.ts';
import { tx, type TxWrite } from '#lib/db/transact.ts';
import { Throttled } from '#lib/errors.ts';
import { epochSeconds } from '#lib/time.ts';

// The comments a user may create (docs/api.md, Limits): so many per UTC minute and per UTC day,
// fixed windows, each a counter item of lib/auth/rate-limits.ts. A create counts itself in its
// own transaction, on condition that the count is still under the limit: no read and no round
// trip of its own, and exact under a burst (of twelve creates at once with a limit of ten, two
// fail their condition). Only comments created count.

/** The counters of the caller's comments in the windows that hold `now` (epoch seconds): the day's first, which makes the longer wait win. */
function counters(caller: Caller, now: number): Counter[] {
  const limits = commentRateLimits();
  const subject = [String(caller.userId)];
  return [counterFor('comments-day', subject, limits.day, now), counterFor('comments-minute', subject, limits.minute, now)];
}

/** The writes that count one more comment by the caller, each failing with the 429 of its window when that window is full. */
export function commentRateWrites(caller: Caller, now: number = epochSeconds()): TxWrite[] {
  return counters(caller, now).map((counter) => ({
    write: tx.update(counter.key, counterIncrement({ attribute: 'count', expiresAt: counter.endsAt }), {
      expression: 'attribute_not_exists(#count) OR #count < :max',
      values: { ':max': counter.setting.max },
    }),
    onConditionFailed: () => new Throttled(counter.endsAt - now),
  }));
}
