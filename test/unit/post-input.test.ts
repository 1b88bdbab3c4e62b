import { describe, expect, it } from 'vitest';
import { ValidationError } from '#lib/errors.ts';
import { parsePostInput } from '#lib/posts/input.ts';
import { POST_LIMITS } from '#lib/posts/limits.ts';
import type { Input } from '#lib/validation.ts';

// The post body's limits (POST_LIMITS) at and one past each bound, characters counted as Unicode
// code points whatever their script or UTF-8 length.

const json = (data: Record<string, unknown>): Input => ({ data, form: false });
const form = (data: Record<string, string>): Input => ({ data, form: true });
const EMOJI = '\u{1F600}';
const tooLong = (n: number) => `Ensure this field has no more than ${n} characters.`;

/** The field errors parsePostInput throws for an update with `data`, or a failure when it accepts it. */
function errorsOf(input: Input): Record<string, string[]> {
  try {
    parsePostInput(input, { partial: true });
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    return (error as ValidationError).fields;
  }
  throw new Error('expected a ValidationError');
}

describe('limits', () => {
  it('are those docs/api.md gives the post fields', () => {
    expect(POST_LIMITS).toMatchObject({ title: 200, description: 100_000, descriptionBytes: 300_000, keywords: 500, meta_description: 1_000, tags: 20 });
  });
});

describe('description', () => {
  it('accepts 100,000 characters within 300,000 bytes and refuses one character more', () => {
    for (const unit of ['a', 'é', '日']) {
      const at = unit.repeat(100_000);
      expect(parsePostInput(json({ description: at }), { partial: true }).description).toBe(at);
      expect(errorsOf(json({ description: `${at}a` }))).toEqual({ description: [tooLong(100_000)] });
    }
  });

  it('accepts exactly 300,000 bytes of 1- to 4-byte characters and refuses one byte more', () => {
    // 40,000 × 4 + 30,000 × 3 + 20,000 × 2 + 10,000 × 1 bytes: both limits at once.
    const mixed = `${EMOJI.repeat(40_000)}${'日'.repeat(30_000)}${'é'.repeat(20_000)}${'a'.repeat(10_000)}`;
    expect(Buffer.byteLength(mixed, 'utf8')).toBe(300_000);
    expect(parsePostInput(json({ description: mixed }), { partial: true }).description).toBe(mixed);
    const bytesMessage = { description: ['Ensure this field has no more than 300000 bytes in UTF-8.'] };
    expect(errorsOf(json({ description: `${mixed.slice(0, -1)}é` }))).toEqual(bytesMessage);

    // Emoji count one character each: 75,000 of them are 300,000 bytes, 75,001 one byte more.
    const emoji = EMOJI.repeat(75_000);
    expect(parsePostInput(form({ description: emoji }), { partial: true }).description).toBe(emoji);
    expect(errorsOf(form({ description: `${emoji}a` }))).toEqual(bytesMessage);
  });

  it('reports the character limit, not the byte limit, when both are passed', () => {
    expect(errorsOf(json({ description: EMOJI.repeat(100_001) }))).toEqual({ description: [tooLong(100_000)] });
  });
});

describe('title, keywords and meta_description', () => {
  it.each([
    ['title', 200],
    ['keywords', 500],
    ['meta_description', 1_000],
  ] as const)('%s: %i characters of 4 bytes accepted, one more refused', (field, limit) => {
    // A title needs a letter to form a slug.
    const text = (n: number) => (field === 'title' ? `T${EMOJI.repeat(n - 1)}` : EMOJI.repeat(n));
    expect(parsePostInput(json({ [field]: text(limit) }), { partial: true })[field]).toBe(text(limit));
    expect(errorsOf(json({ [field]: text(limit + 1) }))).toEqual({ [field]: [tooLong(limit)] });
  });
});

describe('tags', () => {
  const titles = (n: number) => Array.from({ length: n }, (_, i) => `T${String(i).padStart(2, '0')} ${EMOJI.repeat(96)}`);
  const tooMany = { tags: ['Ensure this field has no more than 20 elements.'] };

  it('accepts 20 tags of 100 characters', () => {
    const twenty = titles(20);
    for (const title of twenty) expect([...title]).toHaveLength(100);
    expect(parsePostInput(form({ tags: twenty.join(',') }), { partial: true }).tags).toEqual(twenty);
    expect(parsePostInput(json({ tags: twenty }), { partial: true }).tags).toEqual(twenty);
  });

  it('refuses 21 with the DRF list message, comma-separated or as an array', () => {
    expect(errorsOf(form({ tags: titles(21).join(',') }))).toEqual(tooMany);
    expect(errorsOf(json({ tags: titles(21) }))).toEqual(tooMany);
  });

  it('counts distinct titles: repeats in another case and empty parts do not count', () => {
    const twenty = titles(20);
    const parsed = parsePostInput(form({ tags: [...twenty, twenty[0]!.toLowerCase(), ' ', ''].join(',') }), { partial: true });
    expect(parsed.tags).toEqual(twenty);
  });
});
