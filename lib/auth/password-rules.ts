import { commonPasswords } from './common-passwords.ts';

// Django's default password validators (AUTH_PASSWORD_VALIDATORS of a new project), in their
// order, each failure one message: similarity to the username, minimum length, common
// passwords, entirely numeric. Lengths count code points, as Python's len() does.

export const PASSWORD_MESSAGES = {
  similar: 'The password is too similar to the username.',
  tooShort: (min: number) => `This password is too short. It must contain at least ${min} character${min === 1 ? '' : 's'}.`,
  common: 'This password is too common.',
  numeric: 'This password is entirely numeric.',
} as const;

export const MIN_PASSWORD_LENGTH = 8;
export const MAX_SIMILARITY = 0.7;

const length = (text: string) => [...text].length;

/**
 * An upper bound of difflib's SequenceMatcher ratio, as its quick_ratio computes it: twice the
 * characters the two strings have in common (as multisets) over their total length.
 */
export function quickRatio(a: string, b: string): number {
  const total = length(a) + length(b);
  if (total === 0) return 1;
  const available = new Map<string, number>();
  for (const char of b) available.set(char, (available.get(char) ?? 0) + 1);
  let matches = 0;
  for (const char of a) {
    const left = available.get(char) ?? 0;
    if (left > 0) {
      matches += 1;
      available.set(char, left - 1);
    }
  }
  return (2 * matches) / total;
}

/**
 * A value so much shorter than the password that the ratio cannot reach the limit: Django skips
 * it (a password ten times as long as the value, the value shorter than half the limit times the
 * password's length).
 */
function farShorter(password: string, value: string): boolean {
  const passwordLength = length(password);
  const valueLength = length(value);
  return passwordLength >= 10 * valueLength && valueLength < (MAX_SIMILARITY / 2) * passwordLength;
}

/** Whether the password is too similar to the username or one of its parts (split at non-word characters). */
export function tooSimilar(password: string, username: string): boolean {
  if (!username) return false;
  const lowered = password.toLowerCase();
  const value = username.toLowerCase();
  const parts = [...value.split(/[^\p{L}\p{N}_]+/u), value];
  return parts.some((part) => !farShorter(lowered, part) && quickRatio(lowered, part) >= MAX_SIMILARITY);
}

/** The messages of every rule the password breaks, in Django's order; empty when it is acceptable. */
export function passwordProblems(password: string, username: string | undefined): string[] {
  const problems: string[] = [];
  if (username !== undefined && tooSimilar(password, username)) problems.push(PASSWORD_MESSAGES.similar);
  if (length(password) < MIN_PASSWORD_LENGTH) problems.push(PASSWORD_MESSAGES.tooShort(MIN_PASSWORD_LENGTH));
  if (commonPasswords().has(password.toLowerCase().trim())) problems.push(PASSWORD_MESSAGES.common);
  if (/^\p{Nd}+$/u.test(password)) problems.push(PASSWORD_MESSAGES.numeric);
  return problems;
}
