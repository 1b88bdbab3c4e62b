import { ValidationError } from '#lib/errors.ts';
import { slugify } from '#lib/slugs/slugify.ts';
import { TAG_TITLE_MAX_LENGTH } from '#lib/tags/tag.ts';
import { check, MESSAGES, type Input } from '#lib/validation.ts';
import { POST_LIMITS } from './limits.ts';

export interface PostInput {
  title?: string;
  description?: string;
  keywords?: string | null;
  meta_description?: string | null;
  publish?: boolean;
  /** Tag titles, trimmed, without empties or case-insensitive repeats. */
  tags?: string[];
  /** Closes the post to new comments and to edits of its comments (its author, or a moderator). */
  comments_locked?: boolean;
  /**
   * `is_featured` as sent, unchecked: only a moderator's counts (featuredRequest), anyone else's is
   * ignored whatever it holds, as v1 ignores it.
   */
  is_featured?: { sent: unknown };
}

/** The fields a post's author writes: a moderator's change of another's post may hold none of them (docs/api.md, Moderators). */
export const POST_CONTENT_FIELDS = ['title', 'description', 'tags', 'keywords', 'meta_description', 'publish'] as const;

/** The fields of a post a moderator may set on anyone's post. */
export const POST_MODERATION_FIELDS = ['is_featured', 'comments_locked'] as const;

/** Whether the body names the field at all (whatever its value). */
export const sends = (input: Input, field: string): boolean => Object.prototype.hasOwnProperty.call(input.data, field);

/**
 * The `is_featured` a moderator asked for: true or false, or the field's error; undefined when it
 * was not sent. `publish`: whether the post will be published, which a featured post must be.
 */
export function featuredRequest(input: PostInput, publish: boolean): { value?: boolean; error?: string } | undefined {
  if (!input.is_featured) return undefined;
  const checked = check({ data: { is_featured: input.is_featured.sent }, form: false }, { is_featured: { type: 'boolean' } });
  const error = checked.errors.is_featured?.[0];
  if (error) return { error };
  const value = checked.values.is_featured === true;
  return value && !publish ? { error: 'Only a published post can be featured.' } : { value };
}

/** `tags` as comma-separated titles (a JSON array of titles is accepted too). */
function parseTags(raw: unknown): string[] | string {
  let parts: unknown[];
  if (typeof raw === 'string') parts = raw.split(',');
  else if (Array.isArray(raw)) parts = raw;
  else return raw === null ? MESSAGES.null : MESSAGES.invalidString;
  const titles: string[] = [];
  const seen = new Set<string>();
  for (const part of parts) {
    if (typeof part !== 'string') return MESSAGES.invalidString;
    const title = part.trim();
    if (title === '') continue;
    if (title.includes('\0')) return MESSAGES.nullCharacters;
    if (/\p{Surrogate}/u.test(title)) return MESSAGES.surrogates;
    // A title with no letter or digit is dropped like an empty part (docs/api.md, Tags on posts).
    if (slugify(title) === '') continue;
    if ([...title].length > TAG_TITLE_MAX_LENGTH) return `Ensure each tag has no more than ${TAG_TITLE_MAX_LENGTH} characters.`;
    const folded = title.toLowerCase();
    if (seen.has(folded)) continue;
    seen.add(folded);
    titles.push(title);
  }
  if (titles.length > POST_LIMITS.tags) return `Ensure this field has no more than ${POST_LIMITS.tags} elements.`;
  return titles;
}

/**
 * Validates a create (`partial: false`: title and description required) or an update body.
 * Fields the client may not set (slug, author, counters, ...) are ignored; `is_featured` is kept
 * as sent, for a moderator's request (featuredRequest).
 */
export function parsePostInput(input: Input, { partial }: { partial: boolean }): PostInput {
  const checked = check(input, {
    title: { type: 'string', required: !partial, maxLength: POST_LIMITS.title },
    description: { type: 'string', required: !partial, maxLength: POST_LIMITS.description },
    keywords: { type: 'string', nullable: true, allowBlank: true, maxLength: POST_LIMITS.keywords },
    meta_description: { type: 'string', nullable: true, allowBlank: true, maxLength: POST_LIMITS.meta_description },
    publish: { type: 'boolean' },
    comments_locked: { type: 'boolean' },
  });
  const errors = checked.errors;
  const values = checked.values as PostInput;
  if (typeof values.description === 'string' && Buffer.byteLength(values.description, 'utf8') > POST_LIMITS.descriptionBytes) {
    errors.description = [`Ensure this field has no more than ${POST_LIMITS.descriptionBytes} bytes in UTF-8.`];
  }
  if (values.title !== undefined && slugify(values.title) === '') {
    errors.title = ['The title must contain at least one letter or digit to form a slug.'];
  }
  if (Object.prototype.hasOwnProperty.call(input.data, 'tags')) {
    const tags = parseTags(input.data.tags);
    if (typeof tags === 'string') errors.tags = [tags];
    else values.tags = tags;
  }
  if (Object.keys(errors).length > 0) throw new ValidationError(errors);
  if (sends(input, 'is_featured')) values.is_featured = { sent: input.data.is_featured };
  return values;
}
