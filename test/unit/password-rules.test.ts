import { describe, expect, it } from 'vitest';
import { commonPasswords } from '#lib/auth/common-passwords.ts';
import { PASSWORD_MESSAGES, passwordProblems, quickRatio, tooSimilar } from '#lib/auth/password-rules.ts';

const SIMILAR = 'The password is too similar to the username.';
const SHORT = 'This password is too short. It must contain at least 8 characters.';
const COMMON = 'This password is too common.';
const NUMERIC = 'This password is entirely numeric.';

describe('the common-passwords list', () => {
  it("is Django's list: 20,000 lower-cased passwords (at least the 1,000 the contract asks for)", () => {
    const list = commonPasswords();
    expect(list.size).toBeGreaterThanOrEqual(19_000);
    expect(list.has('password')).toBe(true);
    expect(list.has('sunshine')).toBe(true);
    expect([...list].every((entry) => entry === entry.trim() && entry.length > 0)).toBe(true);
  });
});

describe('quickRatio (difflib quick_ratio)', () => {
  it('is twice the shared characters over the total length, as Python computes it', () => {
    // Values printed by Python's difflib.SequenceMatcher(a=..., b=...).quick_ratio().
    expect(quickRatio('alice123!', 'alice')).toBeCloseTo(0.7142857142857143, 12);
    expect(quickRatio('alicealice', 'alice')).toBeCloseTo(0.6666666666666666, 12);
    expect(quickRatio('smith12', 'smith')).toBeCloseTo(0.8333333333333334, 12);
    expect(quickRatio('x7k!ab', 'bob')).toBeCloseTo(0.2222222222222222, 12);
    expect(quickRatio('σοφια2024', 'σοφια')).toBeCloseTo(0.7142857142857143, 12);
    expect(quickRatio('', '')).toBe(1);
  });
});

describe('tooSimilar', () => {
  it('compares case-insensitively with the whole username and with its parts split at non-word characters', () => {
    expect(tooSimilar('Alice123!', 'alice')).toBe(true);
    expect(tooSimilar('alicealice', 'alice')).toBe(false);
    expect(tooSimilar('smith12', 'john.smith')).toBe(true);
    expect(tooSimilar('smithjohn1', 'john.smith')).toBe(true);
    expect(tooSimilar('zq7!wv-pk', 'john.smith')).toBe(false);
    expect(tooSimilar('ΣΟΦΙΑ2024', 'σοφια')).toBe(true);
  });

  it('skips a part far shorter than the password, as Django does', () => {
    expect(tooSimilar('a'.repeat(40), 'a')).toBe(false);
  });
});

describe('passwordProblems', () => {
  it('accepts a good password', () => {
    expect(passwordProblems('correct horse battery', 'alice')).toEqual([]);
  });

  it("lists every broken rule, one message each, in Django's order: similar, short, common, numeric", () => {
    expect(passwordProblems('12345678', '12345678')).toEqual([SIMILAR, COMMON, NUMERIC]);
    expect(passwordProblems('123', 'bob')).toEqual([SHORT, COMMON, NUMERIC]);
    expect(passwordProblems('bob12', 'bob')).toEqual([SIMILAR, SHORT]);
    expect(passwordProblems('48120957', 'bob')).toEqual([NUMERIC]);
  });

  it('finds a common password whatever its case and surrounding spaces', () => {
    expect(passwordProblems('SunShine', 'bob')).toEqual([COMMON]);
    expect(passwordProblems(' sunshine ', 'bob')).toEqual([COMMON]);
  });

  it('counts length in characters (code points), not UTF-16 units', () => {
    expect(passwordProblems('😀😀😀😀', 'bob')).toContain(SHORT);
    expect(passwordProblems('😀😀😀😀😀😀😀😀', 'bob')).toEqual([]);
  });

  it('skips the similarity rule without a username', () => {
    expect(passwordProblems('alice123!', undefined)).toEqual([]);
  });

  it('words the length message as Django does', () => {
    expect(PASSWORD_MESSAGES.tooShort(8)).toBe(SHORT);
    expect(PASSWORD_MESSAGES.tooShort(1)).toBe('This password is too short. It must contain at least 1 character.');
  });
});
