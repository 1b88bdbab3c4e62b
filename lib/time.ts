// Timestamps are UTC with microseconds. Posts use ISO 8601 (`2026-01-05T14:12:15.258987+00:00`);
// profiles use Django's str() form with a space (`2026-01-05 14:12:15.258987+00:00`).

import { lambdaFunctionName } from './config.ts';

// The clock every timestamp and every expiry the functions compute reads (nowMicros, nowMs,
// epochSeconds). The local stack runs the handlers from source in the test's process: a test
// moves this clock (moveClock, through its API's `clock`) to reach an expiry or the next second
// without sleeping, and the handlers, the tokens they check and the items they write follow it.
// A Lambda function's clock is the system's, never moved: moveClock throws wherever
// AWS_LAMBDA_FUNCTION_NAME is set (Lambda, and the local stack's bundles), and no function imports
// it, so no bundle contains it (test/api/bundles.test.ts checks every bundle of cdk.out).

let lastMicros = 0;
let offsetMicros = 0;

/** Microseconds since the epoch, strictly increasing within this process (while the clock is not moved back). */
export function nowMicros(): number {
  const micros = Math.floor((performance.timeOrigin + performance.now()) * 1000) + offsetMicros;
  lastMicros = micros > lastMicros ? micros : lastMicros + 1;
  return lastMicros;
}

/** Milliseconds since the epoch, as Date.now() on the clock above. */
export function nowMs(): number {
  return Math.floor(nowMicros() / 1000);
}

/** What moveClock says where the clock may not move. */
export const CLOCK_NOT_MOVABLE = 'The clock of a Lambda function is not moved: moveClock is for tests of the sources in one process.';

/**
 * Tests only: moves this process's clock `byMs` milliseconds from where it is now (forward, or back
 * to write an item as it was written in the past); `moveClock(0)` after `resetClock()` is a no-op.
 * Refused in a Lambda function (AWS_LAMBDA_FUNCTION_NAME set), deployed or run from its bundle.
 */
export function moveClock(byMs: number): void {
  if (lambdaFunctionName()) throw new Error(CLOCK_NOT_MOVABLE);
  if (!Number.isFinite(byMs)) throw new Error(`moveClock: ${byMs} is not a number of milliseconds`);
  offsetMicros += Math.round(byMs * 1000);
  // A clock moved back starts counting from its new time: strictly increasing again from there.
  if (byMs < 0) lastMicros = 0;
}

/** Tests only: the system's clock again (moveClock's offset undone). */
export function resetClock(): void {
  if (offsetMicros !== 0) moveClock(-offsetMicros / 1000);
}

/** How far moveClock has moved this process's clock, in milliseconds (0: the system's). */
export function clockOffsetMs(): number {
  return offsetMicros / 1000;
}

export function isoTimestamp(micros: number = nowMicros()): string {
  const date = new Date(Math.floor(micros / 1000));
  const fraction = String(micros % 1_000_000).padStart(6, '0');
  return `${date.toISOString().slice(0, 19)}.${fraction}+00:00`;
}

export function profileTimestamp(iso: string): string {
  return iso.replace('T', ' ');
}

export function epochSeconds(micros: number = nowMicros()): number {
  return Math.floor(micros / 1_000_000);
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** True for a real calendar date written `YYYY-MM-DD`. */
export function isCalendarDate(value: string): boolean {
  const match = DATE.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (year < 1) return false;
  // setUTCFullYear, not Date.UTC: Date.UTC maps years 0-99 to 1900-1999.
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}
