// Apart from rules.ts: the slugify library's character map is loaded only by the functions that
// make slugs (creating tags and posts, renaming posts), not by every function that checks one.
import slugifyLib from 'slugify';
import { MAX_SLUG_LENGTH } from './rules.ts';

// NFKD first, as Django's slugify, so compatibility characters fold to plain letters (ﬁ → fi,
// fullwidth Ａ → A) and accents come apart from their letters.
const COMBINING_MARKS = /\p{M}+/gu;
const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;

/** The slug of a title that has letters or digits the library cannot spell in ASCII (CJK, ...). */
const FALLBACK_SLUG = 'untitled';

/**
 * Lowercase ASCII words joined by single hyphens. Underscores separate words too, so every slug
 * this service makes also passes `isValidSlug`. A title with letters or digits that still spell
 * nothing in ASCII gets FALLBACK_SLUG; one without any letter or digit gets '' (refused by callers),
 * even when the library would spell its symbols as words (`$ & %` would be `dollar-and-percent`).
 */
export function slugify(text: string): string {
  const folded = text.normalize('NFKD').replace(COMBINING_MARKS, '').replace(/_/g, ' ');
  if (!LETTER_OR_DIGIT.test(folded)) return '';
  const slug = slugifyLib(folded, { lower: true, strict: true, trim: true }).slice(0, MAX_SLUG_LENGTH).replace(/-+$/, '');
  return slug === '' ? FALLBACK_SLUG : slug;
}
