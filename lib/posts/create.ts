import { tokenStillValid, type Caller } from '#lib/auth/tokens.ts';
import { readForAttempt, type BatchResult } from '#lib/db/batch.ts';
import { keys, type Key } from '#lib/db/keys.ts';
import { withRetries } from '#lib/retry.ts';
import { candidateKeys, firstFreeSlug } from '#lib/slugs/free-slug.ts';
import { slugify } from '#lib/slugs/slugify.ts';
import { SlugContention } from '#lib/slugs/tickets.ts';
import { resolveTags, tagKeys } from '#lib/tags/resolve.ts';
import { isoTimestamp } from '#lib/time.ts';
import type { Input } from '#lib/validation.ts';
import { ValidationError } from '#lib/errors.ts';
import { commitPostChange } from './changes.ts';
import { summaryOf } from './summarize.ts';
import { featuredRequest, parsePostInput, type PostInput } from './input.ts';
import { POST_SLUG_WINDOW } from './limits.ts';
import { newPost, type PostRecord } from './post.ts';

/** The body of POST /posts, validated: title and description required. */
export function parseCreate(body: Input): PostInput {
  return parsePostInput(body, { partial: false });
}

/** What POST /posts reads with the token: the first window of slug candidates, the tags' title claims and slugs. */
export function createReads(input: PostInput): Key[] {
  return [...candidateKeys(slugify(input.title!), keys.post, POST_SLUG_WINDOW), ...tagKeys(input.tags ?? [])];
}

/**
 * POST /posts: a new post by the caller under the first free slug of its title (after a lost
 * claim, the ticket's: lib/slugs/tickets.ts); tags not seen before are created. The post, its tags
 * and the counters are one transaction. `read` is the read made with the token (createReads). A
 * moderator may feature it at once (a published one: docs/api.md, Moderators); anyone else's
 * `is_featured` is ignored.
 */
export function createPost(caller: Caller, input: PostInput, read: BatchResult): Promise<PostRecord> {
  const featured = caller.moderator ? featuredRequest(input, input.publish ?? false) : undefined;
  if (featured?.error) return Promise.reject(new ValidationError({ is_featured: [featured.error] }));
  const base = slugify(input.title!);
  const contention = new SlugContention('post');
  return withRetries(async (attempt) => {
    const current = await readForAttempt(attempt, read);
    const slug = await firstFreeSlug({ base, keyOf: keys.post, window: POST_SLUG_WINDOW, firstWindow: current, tickets: contention.tickets });
    const tags = await resolveTags(input.tags ?? [], current);
    const post = { ...newPost(caller, input, { slug, slugBase: base }, tags.tags, isoTimestamp()), is_featured: featured?.value ?? false };
    await contention.claim(
      commitPostChange({ before: null, after: post, createdTags: tags.created, with: [tokenStillValid(caller)], summary: summaryOf(post) }),
    );
    return post;
  });
}
