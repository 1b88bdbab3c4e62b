import { ValidationError } from '#lib/errors.ts';
import { isCalendarDate } from './time.ts';

// Field validation with Django REST Framework's rules and message texts, so clients written
// against the reference service see the same errors.

export const MESSAGES = {
  required: 'This field is required.',
  null: 'This field may not be null.',
  blank: 'This field may not be blank.',
  invalidString: 'Not a valid string.',
  maxLength: (n: number) => `Ensure this field has no more than ${n} characters.`,
  nullCharacters: 'Null characters are not allowed.',
  surrogates: 'Surrogate characters are not allowed.',
  url: 'Enter a valid URL.',
  date: 'Date has wrong format. Use one of these formats instead: YYYY-MM-DD.',
  boolean: 'Must be a valid boolean.',
  integer: 'A valid integer is required.',
} as const;

interface CommonSpec {
  required?: boolean;
  nullable?: boolean;
}
export type FieldSpec =
  | (CommonSpec & { type: 'string'; maxLength?: number; allowBlank?: boolean; trim?: boolean })
  | (CommonSpec & { type: 'url'; maxLength?: number; allowBlank?: boolean })
  | (CommonSpec & { type: 'date' })
  | (CommonSpec & { type: 'boolean' });

export type FieldValue = string | boolean | null;
export type Specs = Record<string, FieldSpec>;
export type Validated<S extends Specs> = { [K in keyof S]?: FieldValue };

/** The request body after parsing: a JSON object, or form fields (`form: true`). */
export interface Input {
  data: Record<string, unknown>;
  form: boolean;
}

/** The texts a boolean field takes (any case, surrounding white space ignored), as DRF's BooleanField. */
export const BOOLEAN_TEXTS = {
  true: ['t', 'y', 'yes', 'true', 'on', '1'],
  false: ['f', 'n', 'no', 'false', 'off', '0'],
} as const;

const TRUE_VALUES = new Set<string>(BOOLEAN_TEXTS.true);
const FALSE_VALUES = new Set<string>(BOOLEAN_TEXTS.false);

class FieldProblem extends Error {}

function asString(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  throw new FieldProblem(MESSAGES.invalidString);
}

function checkCharacters(value: string): void {
  if (value.includes('\0')) throw new FieldProblem(MESSAGES.nullCharacters);
  if (/\p{Surrogate}/u.test(value)) throw new FieldProblem(MESSAGES.surrogates);
}

function toBoolean(value: unknown): boolean {
  if (value === true || value === 1) return true;
  if (value === false || value === 0) return false;
  if (typeof value === 'string') {
    const lowered = value.trim().toLowerCase();
    if (TRUE_VALUES.has(lowered)) return true;
    if (FALSE_VALUES.has(lowered)) return false;
  }
  throw new FieldProblem(MESSAGES.boolean);
}

export function isHttpUrl(value: string): boolean {
  if (/\s/.test(value)) return false;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
  const host = url.hostname;
  return host === 'localhost' || /^\[[0-9a-f:.]+\]$/i.test(host) || /^[^.]+(\.[^.]+)+$/.test(host);
}

function convert(spec: FieldSpec, raw: unknown): FieldValue {
  switch (spec.type) {
    case 'boolean':
      return toBoolean(raw);
    case 'date': {
      if (typeof raw !== 'string' || !isCalendarDate(raw.trim())) throw new FieldProblem(MESSAGES.date);
      return raw.trim();
    }
    case 'string':
    case 'url': {
      let value = asString(raw);
      if (spec.type === 'url' || spec.trim !== false) value = value.trim();
      checkCharacters(value);
      if (value === '') {
        if (spec.allowBlank) return '';
        throw new FieldProblem(MESSAGES.blank);
      }
      if (spec.maxLength !== undefined && [...value].length > spec.maxLength) {
        throw new FieldProblem(MESSAGES.maxLength(spec.maxLength));
      }
      if (spec.type === 'url' && !isHttpUrl(value)) throw new FieldProblem(MESSAGES.url);
      return value;
    }
  }
}

export interface Checked<S extends Specs> {
  values: Validated<S>;
  /** Messages by field; empty when every field is valid. */
  errors: Record<string, string[]>;
}

/**
 * Checks the fields named in `specs`: the values of the valid ones and the problems of the others.
 * Fields not in `specs` are ignored (read-only fields in a body have no effect).
 */
export function check<S extends Specs>(input: Input, specs: S): Checked<S> {
  const values: Validated<S> = {};
  const errors: Record<string, string[]> = {};
  for (const [name, spec] of Object.entries(specs) as [keyof S & string, FieldSpec][]) {
    if (!Object.prototype.hasOwnProperty.call(input.data, name)) {
      if (spec.required) errors[name] = [MESSAGES.required];
      continue;
    }
    let raw = input.data[name];
    // A blank form field means "no value" for a nullable field that cannot be blank (DRF).
    const blankMeansNull = spec.type === 'date' || spec.type === 'boolean' || !('allowBlank' in spec && spec.allowBlank);
    if (input.form && raw === '' && spec.nullable && blankMeansNull) raw = null;
    if (raw === null) {
      if (spec.nullable) values[name] = null;
      else errors[name] = [MESSAGES.null];
      continue;
    }
    try {
      values[name] = convert(spec, raw);
    } catch (error) {
      if (!(error instanceof FieldProblem)) throw error;
      errors[name] = [error.message];
    }
  }
  return { values, errors };
}

/** The values of `specs`, or one ValidationError carrying every problem. */
export function validate<S extends Specs>(input: Input, specs: S): Validated<S> {
  const { values, errors } = check(input, specs);
  if (Object.keys(errors).length > 0) throw new ValidationError(errors);
  return values;
}
