// Timestamps are UTC with microseconds. Posts use ISO 8601 (`2026-01-05T14:12:15.258987+00:00`);
// profiles use Django's str() form with a space (`2026-01-05 14:12:15.258987+00:00`).

let lastMicros = 0;

/** Microseconds since the epoch, strictly increasing within this process. */
export function nowMicros(): number {
  const micros = Math.floor((performance.timeOrigin + performance.now()) * 1000);
  lastMicros = micros > lastMicros ? micros : lastMicros + 1;
  return lastMicros;
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
