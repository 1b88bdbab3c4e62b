import { describe, expect, it } from 'vitest';
import { counterFor, countOf, exhausted } from '#lib/auth/rate-limits.ts';
import { TTL_ATTRIBUTE } from '#lib/db/table.ts';
import { Throttled } from '#lib/errors.ts';
import { errorResult } from '#lib/http/respond.ts';

const SETTING = { max: 3, windowSeconds: 900 };

describe('Throttled', () => {
  it("answers DRF's 429 body with Retry-After, in whole seconds, singular for 1", () => {
    expect(errorResult(new Throttled(1))).toMatchObject({
      status: 429,
      body: { detail: 'Request was throttled. Expected available in 1 second.' },
      headers: { 'Retry-After': '1' },
    });
    expect(errorResult(new Throttled(59.2))).toMatchObject({
      body: { detail: 'Request was throttled. Expected available in 60 seconds.' },
      headers: { 'Retry-After': '60' },
    });
    expect(errorResult(new Throttled(0))).toMatchObject({
      body: { detail: 'Request was throttled. Expected available in 1 second.' },
      headers: { 'Retry-After': '1' },
    });
  });
});

describe('fixed-window counters', () => {
  it('key a window by its start: the same key within a window, a new one after it', () => {
    const a = counterFor('login-pair', ['bob', '10.0.0.1'], SETTING, 1800);
    const b = counterFor('login-pair', ['bob', '10.0.0.1'], SETTING, 2699);
    const c = counterFor('login-pair', ['bob', '10.0.0.1'], SETTING, 2700);
    expect(a.key).toEqual(b.key);
    expect(a.endsAt).toBe(2700);
    expect(c.key).not.toEqual(a.key);
    expect(c.endsAt).toBe(3600);
  });

  it('digest their subject: parts cannot run into each other, and any length gives a short key', () => {
    const joined = counterFor('login-pair', ['ab', 'c'], SETTING, 0);
    const split = counterFor('login-pair', ['a', 'bc'], SETTING, 0);
    expect(joined.key).not.toEqual(split.key);
    expect(counterFor('login-username', ['x'.repeat(100_000)], SETTING, 0).key.PK.length).toBeLessThan(100);
  });

  it('count nothing for an absent or expired item', () => {
    expect(countOf(undefined, 100)).toBe(0);
    expect(countOf({ count: 5, [TTL_ATTRIBUTE]: 100 }, 100)).toBe(0);
    expect(countOf({ count: 5, [TTL_ATTRIBUTE]: 101 }, 100)).toBe(5);
  });

  it('throttle once a count reaches its limit, for the longest wait among those that did', () => {
    const short = counterFor('a', ['x'], { max: 3, windowSeconds: 60 }, 30);
    const long = counterFor('b', ['x'], { max: 3, windowSeconds: 900 }, 30);
    expect(
      exhausted(
        [
          { counter: short, count: 2 },
          { counter: long, count: 2 },
        ],
        30,
      ),
    ).toBeNull();
    expect(
      exhausted(
        [
          { counter: short, count: 3 },
          { counter: long, count: 2 },
        ],
        30,
      )?.waitSeconds,
    ).toBe(30);
    expect(
      exhausted(
        [
          { counter: short, count: 3 },
          { counter: long, count: 5 },
        ],
        30,
      )?.waitSeconds,
    ).toBe(870);
  });
});
