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
