import { describe, expect, it } from 'vitest';
import { BatchResult } from '#lib/db/batch.ts';
import { keys } from '#lib/db/keys.ts';
import { firstFreeSlug } from '#lib/slugs/free-slug.ts';
import { candidateIndex, couldBeSlug, isValidSlug, MAX_SLUG_LENGTH, slugCandidate } from '#lib/slugs/rules.ts';
import { slugify } from '#lib/slugs/slugify.ts';

describe('slugify', () => {
  it.each([
    ['Hello World', 'hello-world'],
    ['  Hello   World  ', 'hello-world'],
    ['UPPER case Title', 'upper-case-title'],
    ['Crème Brûlée', 'creme-brulee'],
    ['Ünïcödé', 'unicode'],
    ['snake_case_title', 'snake-case-title'],
    ['a--b', 'a-b'],
    ['Hello-World-', 'hello-world'],
    ['-leading and trailing-', 'leading-and-trailing'],
    ['Version 2.0 released', 'version-20-released'],
    ['Tabs\tand\nnewlines', 'tabs-and-newlines'],
    ['123', '123'],
    // docs/api.md, Slugs: NFKD folds compatibility characters and drops accents.
    ['ﬁle sharing', 'file-sharing'],
    ['ＡＢＣ test', 'abc-test'],
    ['Café', 'cafe'],
    ['x² and ½', 'x2-and-12'],
    ['Привет мир', 'privet-mir'],
    ['Ελληνικά', 'ellhnika'],
    ['١٢٣ Arabic digits', '123-arabic-digits'],
  ])('%j -> %j', (title, slug) => {
    expect(slugify(title)).toBe(slug);
  });

  it.each(['!!!', '   ', '', '🎉🎉', '---', '___', '¿¡ ‽', '$ & % ♥', '€ < > ∞ ©', '+'])(
    'returns an empty slug for %j (no letter or digit at all)',
    (title) => {
      expect(slugify(title)).toBe('');
    },
  );

  it.each(['日本語', '한국어', 'עברית', '🎉 中文 🎉'])('gives %j, letters that spell nothing in ASCII, the slug "untitled"', (title) => {
    expect(slugify(title)).toBe('untitled');
  });

  it('keeps the ASCII words of a mixed title', () => {
    expect(slugify('🎉 Party time 🎉')).toBe('party-time');
    expect(slugify('日本語 and English')).toBe('and-english');
  });

  it('caps the slug at MAX_SLUG_LENGTH without leaving a trailing hyphen', () => {
    expect(MAX_SLUG_LENGTH).toBe(200);
    const long = slugify('x'.repeat(250));
    expect(long).toBe('x'.repeat(200));
    // 'abcd ' repeated puts a word boundary at every 5th character, including position 200.
    const words = slugify('abcd '.repeat(60));
    expect(words.length).toBeLessThanOrEqual(MAX_SLUG_LENGTH);
    expect(words.endsWith('-')).toBe(false);
    expect(words).toBe(Array(40).fill('abcd').join('-'));
  });

  it('always yields a valid slug or an empty string', () => {
    const titles = [
      'Hello, World!',
      'snake__case--and  spaces',
      ' _-_ mixed _-_ separators _-_ ',
      'Ça va? Très bien.',
      'C++ & Rust!',
      "It's a test",
      'a'.repeat(199) + ' b',
      'ab '.repeat(100),
      'emoji 🎉 inside',
      'ﬁ ligature',
      'Straße',
    ];
    for (const title of titles) {
      const slug = slugify(title);
      expect(slug === '' || isValidSlug(slug), `${title} -> ${slug}`).toBe(true);
    }
  });
});

describe('isValidSlug', () => {
  it.each(['a', 'abc', 'a-b', 'a1-b2-c3', '2024', 'x'.repeat(MAX_SLUG_LENGTH)])('accepts %j', (slug) => {
    expect(isValidSlug(slug)).toBe(true);
  });

  it.each(['', '-a', 'a-', 'a--b', 'A', 'Hello', 'a_b', 'a b', 'a.b', 'a/b', 'é', 'x'.repeat(MAX_SLUG_LENGTH + 1), 'a\nb', 'a\0'])('rejects %j', (slug) => {
    expect(isValidSlug(slug)).toBe(false);
  });
});

describe('slugCandidate', () => {
  it('gives the base first, then numbered suffixes', () => {
    expect(slugCandidate('hello', 0)).toBe('hello');
    expect(slugCandidate('hello', 1)).toBe('hello-1');
    expect(slugCandidate('hello', 2)).toBe('hello-2');
    expect(slugCandidate('hello', 17)).toBe('hello-17');
  });

  it('produces valid, distinct slugs', () => {
    const candidates = Array.from({ length: 20 }, (_, n) => slugCandidate('my-post', n));
    expect(new Set(candidates).size).toBe(20);
    for (const candidate of candidates) expect(isValidSlug(candidate)).toBe(true);
  });
});

describe('couldBeSlug', () => {
  it('accepts any valid slug, including a maximal base with a suffix', () => {
    expect(couldBeSlug('hello-world')).toBe(true);
    expect(couldBeSlug(slugCandidate('x'.repeat(MAX_SLUG_LENGTH), 123456))).toBe(true);
  });

  it('rejects values no stored slug can have', () => {
    for (const value of ['', 'Hello', 'a--b', '-a', 'a-', 'a b', '../etc', 'a%20b', 'x'.repeat(MAX_SLUG_LENGTH + 13), '\u0000']) {
      expect(couldBeSlug(value), value).toBe(false);
    }
  });
});

describe('candidateIndex', () => {
  it.each([
    ['hello', 'hello', 0],
    ['hello', 'hello-1', 1],
    ['hello', 'hello-39', 39],
    ['hello', 'hello-world', 0],
    ['hello', 'hello-01', 0],
    ['hello-1', 'hello-1-2', 2],
  ])('of %j: %j is candidate %i', (base, slug, index) => {
    expect(candidateIndex(base, slug)).toBe(index);
    if (index > 0) expect(slugCandidate(base, index)).toBe(slug);
  });
});

describe('firstFreeSlug', () => {
  const taken = (...slugs: string[]) => BatchResult.of(slugs.map((slug) => ({ ...keys.post(slug) })));
  const search = (read: BatchResult, own?: string) => firstFreeSlug({ base: 'hello', keyOf: keys.post, window: 5, firstWindow: read, ...(own ? { own } : {}) });

  it("is the first free candidate, the renamed item's own slug counting as free", async () => {
    expect(await search(taken())).toBe('hello');
    expect(await search(taken('hello', 'hello-1', 'hello-3'))).toBe('hello-2');
    expect(await search(taken('hello', 'hello-1'), 'hello-1')).toBe('hello-1');
  });
});
