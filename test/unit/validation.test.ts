import { describe, expect, it } from 'vitest';
import { ValidationError } from '#lib/errors.ts';
import { errorResult } from '#lib/http/respond.ts';
import { isHttpUrl, MESSAGES, validate, type Input, type Specs } from '#lib/validation.ts';

const json = (data: Record<string, unknown>): Input => ({ data, form: false });
const form = (data: Record<string, string>): Input => ({ data, form: true });

/** The field errors validate() throws, or a failure when it does not throw a ValidationError. */
function errorsOf(input: Input, specs: Specs): Record<string, string[]> {
  try {
    validate(input, specs);
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    const failure = error as ValidationError;
    expect(errorResult(failure)).toMatchObject({ status: 400, body: failure.fields });
    return failure.fields;
  }
  throw new Error('expected a ValidationError');
}

describe('messages', () => {
  it('uses the DRF texts', () => {
    expect(MESSAGES.required).toBe('This field is required.');
    expect(MESSAGES.null).toBe('This field may not be null.');
    expect(MESSAGES.blank).toBe('This field may not be blank.');
    expect(MESSAGES.maxLength(100)).toBe('Ensure this field has no more than 100 characters.');
    expect(MESSAGES.url).toBe('Enter a valid URL.');
    expect(MESSAGES.date).toBe('Date has wrong format. Use one of these formats instead: YYYY-MM-DD.');
    expect(MESSAGES.boolean).toBe('Must be a valid boolean.');
    expect(MESSAGES.nullCharacters).toBe('Null characters are not allowed.');
  });
});

describe('required, null and absent fields', () => {
  const specs: Specs = { title: { type: 'string', required: true }, note: { type: 'string' } };

  it('reports a missing required field', () => {
    expect(errorsOf(json({}), specs)).toEqual({ title: ['This field is required.'] });
    expect(errorsOf(form({}), specs)).toEqual({ title: ['This field is required.'] });
  });

  it('leaves an absent optional field out of the result', () => {
    const values = validate(json({ title: 'x' }), specs);
    expect(values).toEqual({ title: 'x' });
    expect(Object.prototype.hasOwnProperty.call(values, 'note')).toBe(false);
  });

  it('does not treat inherited properties as present', () => {
    expect(errorsOf(json({}), { toString: { type: 'string', required: true } } as Specs)).toEqual({ toString: ['This field is required.'] });
    expect(validate(json({}), { constructor: { type: 'string' } } as Specs)).toEqual({});
  });

  it('rejects null for a non-nullable field and accepts it for a nullable one', () => {
    expect(errorsOf(json({ title: null }), specs)).toEqual({ title: ['This field may not be null.'] });
    expect(validate(json({ title: 'x', note: null }), { ...specs, note: { type: 'string', nullable: true } })).toEqual({ title: 'x', note: null });
  });

  it('ignores fields that have no spec', () => {
    expect(validate(json({ title: 'x', author: 'mallory', total_posts: 99 }), specs)).toEqual({ title: 'x' });
  });

  it('collects every problem into one error', () => {
    const errors = errorsOf(json({ a: '', b: 'maybe', c: 'ftp://x.example' }), {
      a: { type: 'string' },
      b: { type: 'boolean' },
      c: { type: 'url' },
      d: { type: 'date', required: true },
    });
    expect(errors).toEqual({
      a: ['This field may not be blank.'],
      b: ['Must be a valid boolean.'],
      c: ['Enter a valid URL.'],
      d: ['This field is required.'],
    });
  });
});

describe('strings', () => {
  it('trims by default and can keep whitespace', () => {
    expect(validate(json({ s: '  padded \t\n' }), { s: { type: 'string' } })).toEqual({ s: 'padded' });
    expect(validate(json({ s: '  padded ' }), { s: { type: 'string', trim: false } })).toEqual({ s: '  padded ' });
  });

  it('treats blank and whitespace-only values as blank', () => {
    for (const value of ['', '   ', '\n\t']) {
      expect(errorsOf(json({ s: value }), { s: { type: 'string' } })).toEqual({ s: ['This field may not be blank.'] });
      expect(validate(json({ s: value }), { s: { type: 'string', allowBlank: true } })).toEqual({ s: '' });
    }
  });

  it('checks the maximum length after trimming', () => {
    const spec: Specs = { s: { type: 'string', maxLength: 5 } };
    expect(validate(json({ s: '  abcde  ' }), spec)).toEqual({ s: 'abcde' });
    expect(errorsOf(json({ s: 'abcdef' }), spec)).toEqual({ s: ['Ensure this field has no more than 5 characters.'] });
  });

  it('counts characters, not UTF-16 code units', () => {
    const spec: Specs = { s: { type: 'string', maxLength: 10 } };
    const emoji = '🎉'.repeat(10);
    expect(emoji.length).toBe(20);
    expect(validate(json({ s: emoji }), spec)).toEqual({ s: emoji });
    expect(validate(json({ s: '日本語のテキストです' }), spec)).toEqual({ s: '日本語のテキストです' });
    expect(errorsOf(json({ s: '🎉'.repeat(11) }), spec)).toEqual({ s: ['Ensure this field has no more than 10 characters.'] });
  });

  it('turns numbers into strings and rejects other types', () => {
    expect(validate(json({ s: 42 }), { s: { type: 'string' } })).toEqual({ s: '42' });
    expect(validate(json({ s: 1.5 }), { s: { type: 'string' } })).toEqual({ s: '1.5' });
    expect(validate(json({ s: 0 }), { s: { type: 'string' } })).toEqual({ s: '0' });
    for (const value of [true, false, [], ['a'], {}, { a: 1 }]) {
      expect(errorsOf(json({ s: value }), { s: { type: 'string' } })).toEqual({ s: ['Not a valid string.'] });
    }
  });

  it('rejects NUL and lone surrogates but accepts other control characters and Unicode', () => {
    expect(errorsOf(json({ s: 'a\u0000b' }), { s: { type: 'string' } })).toEqual({ s: ['Null characters are not allowed.'] });
    expect(errorsOf(json({ s: 'a\uD800b' }), { s: { type: 'string' } })).toEqual({ s: ['Surrogate characters are not allowed.'] });
    expect(errorsOf(json({ s: 'a\uDFFF' }), { s: { type: 'string' } })).toEqual({ s: ['Surrogate characters are not allowed.'] });
    expect(validate(json({ s: 'bell\u0007 escape\u001b' }), { s: { type: 'string' } })).toEqual({ s: 'bell\u0007 escape\u001b' });
    expect(validate(json({ s: 'Ça 🎉 日本' }), { s: { type: 'string' } })).toEqual({ s: 'Ça 🎉 日本' });
  });
});

describe('form bodies', () => {
  it('turns a blank form value into null for a nullable field that cannot be blank', () => {
    const specs: Specs = {
      website: { type: 'url', nullable: true },
      birth_date: { type: 'date', nullable: true },
      flag: { type: 'boolean', nullable: true },
      name: { type: 'string', nullable: true },
    };
    expect(validate(form({ website: '', birth_date: '', flag: '', name: '' }), specs)).toEqual({
      website: null,
      birth_date: null,
      flag: null,
      name: null,
    });
  });

  it('keeps a blank form value for a field that may be blank', () => {
    expect(validate(form({ twitter: '' }), { twitter: { type: 'string', nullable: true, allowBlank: true } })).toEqual({ twitter: '' });
    expect(validate(form({ website: '' }), { website: { type: 'url', nullable: true, allowBlank: true } })).toEqual({ website: '' });
  });

  it('does not turn blank into null for a non-nullable field, nor for JSON bodies', () => {
    expect(errorsOf(form({ name: '' }), { name: { type: 'string' } })).toEqual({ name: ['This field may not be blank.'] });
    expect(errorsOf(json({ website: '' }), { website: { type: 'url', nullable: true } })).toEqual({ website: ['This field may not be blank.'] });
    expect(errorsOf(json({ birth_date: '' }), { birth_date: { type: 'date', nullable: true } })).toEqual({ birth_date: [MESSAGES.date] });
  });
});

describe('booleans', () => {
  const spec: Specs = { publish: { type: 'boolean' } };

  it.each(['true', 'True', 'TRUE', '1', 'yes', 'y', 'on', 't', ' true '])('reads %j as true', (value) => {
    expect(validate(form({ publish: value }), spec)).toEqual({ publish: true });
  });

  it.each(['false', 'False', '0', 'no', 'n', 'off', 'f'])('reads %j as false', (value) => {
    expect(validate(form({ publish: value }), spec)).toEqual({ publish: false });
  });

  it('accepts JSON booleans and 0/1', () => {
    expect(validate(json({ publish: true }), spec)).toEqual({ publish: true });
    expect(validate(json({ publish: false }), spec)).toEqual({ publish: false });
    expect(validate(json({ publish: 1 }), spec)).toEqual({ publish: true });
    expect(validate(json({ publish: 0 }), spec)).toEqual({ publish: false });
  });

  it.each([['maybe'], [''], ['2'], [2], [-1], [[]], [{}], ['truee']])('rejects %j', (value) => {
    expect(errorsOf(json({ publish: value }), spec)).toEqual({ publish: ['Must be a valid boolean.'] });
  });
});

describe('URLs', () => {
  const spec: Specs = { website: { type: 'url', maxLength: 200 } };

  it.each(['https://example.com', 'http://example.com/path?q=1#x', 'https://sub.example.co.uk', 'http://localhost:3000', 'http://[::1]/', 'http://127.0.0.1'])(
    'accepts %s',
    (value) => {
      expect(isHttpUrl(value)).toBe(true);
      expect(validate(json({ website: value }), spec)).toEqual({ website: value });
    },
  );

  it('trims before checking', () => {
    expect(validate(json({ website: '  https://example.com  ' }), spec)).toEqual({ website: 'https://example.com' });
  });

  it.each([
    'example.com',
    'ftp://example.com',
    'javascript:alert(1)',
    'http://exa mple.com',
    'http://nodots',
    'https://',
    'http://.',
    'not a url',
    'mailto:a@example.com',
  ])('rejects %j', (value) => {
    expect(isHttpUrl(value)).toBe(false);
    expect(errorsOf(json({ website: value }), spec)).toEqual({ website: ['Enter a valid URL.'] });
  });

  it('checks the length before the format', () => {
    const long = `https://example.com/${'a'.repeat(200)}`;
    expect(errorsOf(json({ website: long }), spec)).toEqual({ website: ['Ensure this field has no more than 200 characters.'] });
  });
});

describe('dates', () => {
  const spec: Specs = { birth_date: { type: 'date', nullable: true } };

  it('accepts real dates, trimmed', () => {
    expect(validate(json({ birth_date: '2024-02-29' }), spec)).toEqual({ birth_date: '2024-02-29' });
    expect(validate(form({ birth_date: ' 1990-07-15 ' }), spec)).toEqual({ birth_date: '1990-07-15' });
  });

  it.each([['2023-02-29'], ['2023-13-01'], ['15/07/1990'], ['1990-7-15'], ['yesterday'], [19900715], [true], [['1990-07-15']]])('rejects %j', (value) => {
    expect(errorsOf(json({ birth_date: value }), spec)).toEqual({ birth_date: [MESSAGES.date] });
  });

  it('accepts null for a nullable date', () => {
    expect(validate(json({ birth_date: null }), spec)).toEqual({ birth_date: null });
  });
});
