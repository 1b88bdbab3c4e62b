import { tokenStillValid, type Caller } from '#lib/auth/tokens.ts';
import { readForAttempt, type BatchResult } from '#lib/db/batch.ts';
import { keys, type Key } from '#lib/db/keys.ts';
import { Conflict, PermissionDenied, ValidationError } from '#lib/errors.ts';
import { withRetries } from '#lib/retry.ts';
import { candidateKeys, firstFreeSlug } from '#lib/slugs/free-slug.ts';
import { couldBeSlug } from '#lib/slugs/rules.ts';
import { slugify } from '#lib/slugs/slugify.ts';
import { SlugContention } from '#lib/slugs/tickets.ts';
import { resolveTags, tagKeys } from '#lib/tags/resolve.ts';
import { isoTimestamp } from '#lib/time.ts';
import type { Input } from '#lib/validation.ts';
import { NOT_OWNER, visiblePost } from './access.ts';
import { commitPostChange } from './changes.ts';
import { summaryOf } from './summarize.ts';
import { featuredRequest, parsePostInput, POST_CONTENT_FIELDS, sends, type PostInput } from './input.ts';
import { POST_SLUG_WINDOW } from './limits.ts';
import { postToChange, postKeys, type PostRecord } from './post.ts';

/** The body of PUT /posts/detail/{slug} as far as it is valid, and its problems, if any. */
export interface PostUpdate {
  input: PostInput;
  /** Reported only after the 404 and 403 checks, as DRF orders them. */
  invalid?: ValidationError;
  /**
   * The `modified` the client read (docs/api.md, "Edit conflicts"): the update applies only to the
   * post as it was then. Absent (or null): to the post as it is.
   */
  modified?: string;
  /** Which fields the body names, valid or not: an author's (content), or a moderator's flags. */
  sent: { content: boolean; featured: boolean; locked: boolean };
}

/** The 403 of publishing a post a moderator removed (until `npm run admin -- restore-post`). */
export const REMOVED_BY_MODERATOR = 'A moderator removed this post.';

/** The 409 of an edit based on a version of the post that is no longer its current one. */
export class EditConflict extends Conflict {
  constructor() {
    super('The post was changed since you read it.');
  }
}

/** `modified` as sent: any value other than null counts, compared as its text. */
function expectedModified({ data }: Input): { modified?: string } {
  const value = data.modified;
  return value === undefined || value === null ? {} : { modified: typeof value === 'string' ? value : JSON.stringify(value) };
}

export function parseUpdate(body: Input): PostUpdate {
  const expected = expectedModified(body);
  const sent = {
    content: POST_CONTENT_FIELDS.some((field) => sends(body, field)),
    featured: sends(body, 'is_featured'),
    locked: sends(body, 'comments_locked'),
  };
  try {
    return { input: parsePostInput(body, { partial: true }), ...expected, sent };
  } catch (error) {
    if (error instanceof ValidationError)
      return { input: sends(body, 'is_featured') ? { is_featured: { sent: body.data.is_featured } } : {}, invalid: error, ...expected, sent };
    throw error;
  }
}

/**
 * The post if the caller may change it as the body asks: its author anything; a moderator another's
 * post only its flags (is_featured, comments_locked), and none of an author's fields. 404 when
 * unseen, else 403.
 */
function changeablePost(stored: PostRecord | undefined, caller: Caller, { sent }: PostUpdate): PostRecord {
  const post = visiblePost(stored, caller);
  if (post.author === caller.username) return post;
  if (caller.moderator && !sent.content && (sent.featured || sent.locked)) return post;
  throw new PermissionDenied(NOT_OWNER);
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
function applyUpdate(
  before: PostRecord,
  input: PostInput,
  rename: { slug: string; slugBase: string },
  tags: Awaited<ReturnType<typeof resolveTags>> | undefined,
  flags: { featured?: boolean; touches: boolean },
): PostRecord {
  return {
    ...before,
    ...(input.title !== undefined ? { title: input.title } : {}),
    ...(input.description !== undefined ? { description: input.description } : {}),
    ...(input.keywords !== undefined ? { keywords: input.keywords } : {}),
    ...(input.meta_description !== undefined ? { meta_description: input.meta_description } : {}),
    ...(input.publish !== undefined ? { publish: input.publish } : {}),
    ...(tags ? { tags: tags.tags.map((tag) => tag.title), tag_slugs: tags.tags.map((tag) => tag.slug) } : {}),
    ...(input.comments_locked !== undefined ? { comments_locked: input.comments_locked } : {}),
    ...(flags.featured !== undefined ? { is_featured: flags.featured } : {}),
    slug: rename.slug,
    slug_base: rename.slugBase,
    // A change of the flags alone is no edit of the post: `modified` stays.
    modified: flags.touches ? isoTimestamp() : before.modified,
    version: before.version + 1,
  };
}

/**
 * PUT /posts/detail/{slug}: the author changes any subset of the fields. A new title whose slug
 * base differs moves the post to the first free slug of that base; new tags are created. The post
 * (one put, or a put and a delete when renamed), its tags and the counters are one transaction.
 * With `modified`, a post changed since the client read it is a 409 (after the 404 and 403, before
 * validation), and the transaction's write of the text holds the same comparison: of two editors
 * of one version, the second's transaction fails, and its retry answers the 409.
 */
export function updatePost(caller: Caller, slug: string, update: PostUpdate, read: BatchResult): Promise<PostRecord> {
  const { input, invalid, sent } = update;
  // Flags alone (a moderator's is_featured, or comments_locked) neither compare nor refresh `modified`.
  const flagsOnly = !sent.content && ((caller.moderator === true && sent.featured) || sent.locked);
  const modified = flagsOnly ? undefined : update.modified;
  const base = input.title !== undefined ? slugify(input.title) : undefined;
  const contention = new SlugContention('post');
  return withRetries(async (attempt) => {
    const current = await readForAttempt(attempt, read);
    const before = changeablePost(postToChange(current, slug), caller, update);
    if (input.publish === true && before.removed) throw new PermissionDenied(REMOVED_BY_MODERATOR);
    if (modified !== undefined && modified !== before.modified) throw new EditConflict();
    const featured = caller.moderator ? featuredRequest(input, input.publish ?? before.publish) : undefined;
    if (invalid || featured?.error) throw new ValidationError({ ...invalid?.fields, ...(featured?.error ? { is_featured: [featured.error] } : {}) });
    const rename = { slug: before.slug, slugBase: before.slug_base };
    if (base !== undefined && base !== before.slug_base) {
      rename.slug = await firstFreeSlug({
        base,
        keyOf: keys.post,
        window: POST_SLUG_WINDOW,
        firstWindow: current,
        own: before.slug,
        tickets: contention.tickets,
      });
      rename.slugBase = base;
    }
    const tags = input.tags ? await resolveTags(input.tags, current) : undefined;
    const after = applyUpdate(before, input, rename, tags, { ...(featured?.value !== undefined ? { featured: featured.value } : {}), touches: !flagsOnly });
    await contention.claim(
      commitPostChange({
        before,
        after,
        createdTags: tags?.created ?? [],
        with: [tokenStillValid(caller)],
        summary: summaryOf(after),
        ...(modified !== undefined ? { unchangedSince: modified } : {}),
      }),
    );
    return after;
  });
}
