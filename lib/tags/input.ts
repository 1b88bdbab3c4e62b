import { ValidationError } from '#lib/errors.ts';
import { isValidSlug, MAX_SLUG_LENGTH } from '#lib/slugs/rules.ts';
import { slugify } from '#lib/slugs/slugify.ts';
import { check, type Input } from '#lib/validation.ts';
import { TAG_TITLE_MAX_LENGTH } from './tag.ts';

// Apart from tag.ts: parsing a tag body makes slugs (slugify's character map), which the many
// functions that only count a post's tags (tag.ts) need not load.

const SLUG_MESSAGE = 'Enter a valid "slug" consisting of lowercase letters, numbers and single hyphens.';

/** A valid POST /tags body: the slug given, or the base derived from the title (suffixed if taken). */
export type TagInput = { title: string; slug: string; derived: false } | { title: string; base: string; derived: true };

/** The body of POST /tags: a title, and a slug that is derived from the title when absent or blank. */
export function parseTagInput(input: Input): TagInput {
  const { values, errors } = check(input, {
    title: { type: 'string', required: true, maxLength: TAG_TITLE_MAX_LENGTH },
    slug: { type: 'string', allowBlank: true, maxLength: MAX_SLUG_LENGTH },
  });
  const title = typeof values.title === 'string' ? values.title : '';
  const slug = typeof values.slug === 'string' ? values.slug : '';
  if (slug !== '' && !isValidSlug(slug)) errors.slug = [SLUG_MESSAGE];
  const base = slug === '' && title !== '' && !errors.slug ? slugify(title) : undefined;
  if (base === '') errors.title = ['The title must contain at least one letter or digit to form a slug.'];
  if (Object.keys(errors).length > 0) throw new ValidationError(errors);
  return base === undefined ? { title, slug, derived: false } : { title, base, derived: true };
}
