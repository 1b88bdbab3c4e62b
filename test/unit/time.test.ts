import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  CLOCK_NOT_MOVABLE,
  clockOffsetMs,
  epochSeconds,
  isCalendarDate,
  isoTimestamp,
  moveClock,
  nowMicros,
  nowMs,
  profileTimestamp,
  resetClock,
} from '#lib/time.ts';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}\+00:00$/;

describe('isoTimestamp', () => {
  it('formats a given instant with 6 fraction digits and a +00:00 offset', () => {
    const micros = Date.UTC(2026, 0, 5, 14, 12, 15) * 1000 + 258_987;
    expect(isoTimestamp(micros)).toBe('2026-01-05T14:12:15.258987+00:00');
  });

  it('zero-pads small fractions and keeps whole seconds as .000000', () => {
    const second = Date.UTC(2024, 1, 29, 0, 0, 0) * 1000;
    expect(isoTimestamp(second)).toBe('2024-02-29T00:00:00.000000+00:00');
    expect(isoTimestamp(second + 7)).toBe('2024-02-29T00:00:00.000007+00:00');
    expect(isoTimestamp(second + 999_999)).toBe('2024-02-29T00:00:00.999999+00:00');
  });

  it('defaults to now, in UTC', () => {
    const before = Date.now();
    const stamp = isoTimestamp();
    const after = Date.now();
    expect(stamp).toMatch(ISO);
    const parsed = Date.parse(stamp);
    expect(parsed).toBeGreaterThanOrEqual(before - 1);
    expect(parsed).toBeLessThanOrEqual(after + 1);
  });

  it('orders as strings in the same order as the instants', () => {
    const stamps = Array.from({ length: 50 }, () => isoTimestamp());
    expect([...stamps].sort()).toEqual(stamps);
    expect(new Set(stamps).size).toBe(stamps.length);
  });
});

describe('profileTimestamp', () => {
  it('uses a space between date and time, keeping fraction and offset', () => {
    expect(profileTimestamp('2026-01-05T14:12:15.258987+00:00')).toBe('2026-01-05 14:12:15.258987+00:00');
    expect(profileTimestamp(isoTimestamp())).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{6}\+00:00$/);
  });
});

describe('nowMicros', () => {
  it('is strictly increasing even when called in a tight loop', () => {
    const values = Array.from({ length: 10_000 }, () => nowMicros());
    for (let i = 1; i < values.length; i++) expect(values[i]!).toBeGreaterThan(values[i - 1]!);
  });

  it('is close to the wall clock, in microseconds', () => {
    const micros = nowMicros();
    expect(Number.isSafeInteger(micros)).toBe(true);
    expect(Math.abs(micros / 1000 - Date.now())).toBeLessThan(1000);
    expect(epochSeconds(micros)).toBe(Math.floor(micros / 1_000_000));
  });
});

describe('the clock of the tests (moveClock)', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
    resetClock();
  });

  it('moves every reading forward at once, and resetClock gives back the system clock', () => {
    const day = 86_400_000;
    moveClock(30 * day);
    expect(clockOffsetMs()).toBe(30 * day);
    expect(Math.abs(nowMs() - (Date.now() + 30 * day))).toBeLessThan(1000);
    expect(Math.abs(Date.parse(isoTimestamp()) - (Date.now() + 30 * day))).toBeLessThan(1000);
    expect(epochSeconds()).toBeGreaterThanOrEqual(Math.floor((Date.now() + 30 * day) / 1000) - 1);
    resetClock();
    expect(clockOffsetMs()).toBe(0);
    expect(Math.abs(nowMs() - Date.now())).toBeLessThan(1000);
  });

  it('moved back, reads the earlier time, then increases strictly again', () => {
    const before = nowMicros();
    moveClock(-5000);
    const back = Array.from({ length: 1000 }, () => nowMicros());
    expect(back[0]!).toBeLessThan(before - 4_000_000);
    for (let i = 1; i < back.length; i++) expect(back[i]!).toBeGreaterThan(back[i - 1]!);
  });

  it('is never moved in a Lambda function: refused wherever AWS_LAMBDA_FUNCTION_NAME is set, and the clock stays the system one', () => {
    vi.stubEnv('AWS_LAMBDA_FUNCTION_NAME', 'CommunityPosts-AuthLogin');
    expect(() => moveClock(3_600_000)).toThrow(CLOCK_NOT_MOVABLE);
    expect(() => moveClock(-3_600_000)).toThrow(CLOCK_NOT_MOVABLE);
    expect(clockOffsetMs()).toBe(0);
    expect(Math.abs(nowMs() - Date.now())).toBeLessThan(1000);
  });

  it('refuses what is not a number of milliseconds', () => {
    expect(() => moveClock(Number.NaN)).toThrow(/not a number/);
    expect(() => moveClock(Number.POSITIVE_INFINITY)).toThrow(/not a number/);
    expect(clockOffsetMs()).toBe(0);
  });
});

describe('isCalendarDate', () => {
  it.each(['2024-02-29', '2000-02-29', '1999-12-31', '2026-01-01', '0001-01-01', '0004-02-29', '0099-12-31', '9999-12-31', '2023-04-30'])(
    'accepts %s',
    (value) => {
      expect(isCalendarDate(value)).toBe(true);
    },
  );

  it.each([
    '2023-02-29', // not a leap year
    '1900-02-29', // divisible by 100, not by 400
    '2100-02-29',
    '2024-02-30',
    '2023-04-31',
    '2023-13-01',
    '2023-00-10',
    '2023-01-00',
    '2023-01-32',
    '0000-01-01',
    '0003-02-29', // years below 100 are real years, not 1900-1999
    '0100-02-29',
    '2023-1-01',
    '2023-01-1',
    '23-01-01',
    '2023/01/01',
    '20230101',
    ' 2023-01-01',
    '2023-01-01 ',
    '2023-01-01T00:00:00',
    '',
    'not a date',
    '２０２３-01-01',
  ])('rejects %j', (value) => {
    expect(isCalendarDate(value)).toBe(false);
  });
});
