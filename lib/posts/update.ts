import { tokenStillValid, type Caller } from '#lib/auth/tokens.ts';
import { readForAttempt, type BatchResult } from '#lib/db/batch.ts';
import { keys, type Key } from '#lib/db/keys.ts';
import { ValidationError } from '#lib/errors.ts';
import { withRetries } from '#lib/retry.ts';
import { candidateKeys, firstFreeSlug } from '#lib/slugs/free-slug.ts';
import { couldBeSlug } from '#lib/slugs/rules.ts';
import { slugify } from '#lib/slugs/slugify.ts';
import { SlugContention } from '#lib/slugs/tickets.ts';
import { resolveTags, tagKeys } from '#lib/tags/resolve.ts';
import { isoTimestamp } from '#lib/time.ts';
import type { Input } from '#lib/validation.ts';
import { ownedPost } from './access.ts';
import { commitPostChange } from './changes.ts';
import { parsePostInput, type PostInput } from './input.ts';
import { POST_SLUG_WINDOW } from './limits.ts';
import { postToChange, postKeys, type PostRecord } from './post.ts';

/** The body of PUT /posts/detail/{slug} as far as it is valid, and its problems, if any. */
export interface PostUpdate {
  input: PostInput;
  /** Reported only after the 404 and 403 checks, as DRF orders them. */
  invalid?: ValidationError;
}

export function parseUpdate(body: Input): PostUpdate {
  try {
    return { input: parsePostInput(body, { partial: true }) };
  } catch (error) {
    if (error instanceof ValidationError) return { input: {}, invalid: error };
    throw error;
  }
}

/**
 * What PUT /posts/detail/{slug} reads with the token: the post, and for a new title or new tags
 * the slug candidates and the tags' keys; nothing for a slug that cannot exist.
 */
export function updateReads(slug: string, { input }: PostUpdate): Key[] {
  if (!couldBeSlug(slug)) return [];
  const toRead: Key[] = postKeys(slug);
  if (input.title !== undefined) toRead.push(...candidateKeys(slugify(input.title), keys.post, POST_SLUG_WINDOW));
  if (input.tags) toRead.push(...tagKeys(input.tags));
  return toRead;
}

/** The fields of `input` applied to `before`: a new version, renamed to `slug` under `slugBase`. */
function applyUpdate(before: PostRecord, input: PostInput, rename: { slug: string; slugBase: string }, tags?: Awaited<ReturnType<typeof resolveTags>>): PostRecord {
  return {
    ...before,
    ...(input.title !== undefined ? { title: input.title } : {}),
    ...(input.description !== undefined ? { description: input.description } : {}),
    ...(input.keywords !== undefined ? { keywords: input.keywords } : {}),
    ...(input.meta_description !== undefined ? { meta_description: input.meta_description } : {}),
    ...(input.publish !== undefined ? { publish: input.publish } : {}),
    ...(tags ? { tags: tags.tags.map((tag) => tag.title), tag_slugs: tags.tags.map((tag) => tag.slug) } : {}),
    slug: rename.slug,
    slug_base: rename.slugBase,
    modified: isoTimestamp(),
    version: before.version + 1,
  };
}

/**
 * PUT /posts/detail/{slug}: the author changes any subset of the fields. A new title whose slug
 * base differs moves the post to the first free slug of that base; new tags are created. The post
 * (one put, or a put and a delete when renamed), its tags and the counters are one transaction.
 */
export function updatePost(caller: Caller, slug: string, { input, invalid }: PostUpdate, read: BatchResult): Promise<PostRecord> {
  const base = input.title !== undefined ? slugify(input.title) : undefined;
  const contention = new SlugContention('post');
  return withRetries(async (attempt) => {
    const current = await readForAttempt(attempt, read);
    const before = ownedPost(postToChange(current, slug), caller);
    if (invalid) throw invalid;
    const rename = { slug: before.slug, slugBase: before.slug_base };
    if (base !== undefined && base !== before.slug_base) {
      rename.slug = await firstFreeSlug({ base, keyOf: keys.post, window: POST_SLUG_WINDOW, firstWindow: current, own: before.slug, tickets: contention.tickets });
      rename.slugBase = base;
    }
    const tags = input.tags ? await resolveTags(input.tags, current) : undefined;
    const after = applyUpdate(before, input, rename, tags);
    await contention.claim(commitPostChange({ before, after, createdTags: tags?.created ?? [], with: [tokenStillValid(caller)] }));
    return after;
  });
}
