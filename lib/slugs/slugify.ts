// Apart from rules.ts: the slugify library's character map is loaded only by the functions that
// make slugs (creating tags and posts, renaming posts), not by every function that checks one.
import slugifyLib from 'slugify';
import { MAX_SLUG_LENGTH } from './rules.ts';

/**
 * Lowercase ASCII words joined by single hyphens. Underscores separate words too, so every slug
 * this service makes also passes `isValidSlug`. May return '' (a title of only symbols).
 */
export function slugify(text: string): string {
  const slug = slugifyLib(text.replace(/_/g, ' '), { lower: true, strict: true, trim: true });
  return slug.slice(0, MAX_SLUG_LENGTH).replace(/-+$/, '');
}
