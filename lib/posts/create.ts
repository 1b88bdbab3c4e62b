import { randomUUID } from 'node:crypto';
import type { Caller } from '#lib/auth/tokens.ts';
import { readForAttempt, type BatchResult } from '#lib/db/batch.ts';
import { keys, type Key } from '#lib/db/keys.ts';
import { transactWrite, tx } from '#lib/db/transact.ts';
import { ValidationError } from '#lib/http/errors.ts';
import { withRetries } from '#lib/retry.ts';
import { candidateKeys, firstFreeSlug } from '#lib/slugs/free-slug.ts';
import { slugify } from '#lib/slugs/slugify.ts';
import { resolveTags, tagKeys } from '#lib/tags/resolve.ts';
import { isoTimestamp } from '#lib/time.ts';
import type { Input } from '#lib/validation.ts';
import { counterWrites } from './counters.ts';
import { parsePostInput, type PostInput } from './input.ts';
import { POST_SLUG_WINDOW } from './limits.ts';
import { postToItem, type PostRecord } from './post.ts';

/** What a create reads: the first window of slug candidates and the tags' title claims and slugs. */
function keysToRead(input: PostInput): Key[] {
  return [...candidateKeys(slugify(input.title!), keys.post, POST_SLUG_WINDOW), ...tagKeys(input.tags ?? [])];
}

/** What POST /posts reads with the token; nothing for a body that will be refused. */
export function createReads(body: Input): Key[] {
  try {
    return keysToRead(parsePostInput(body, { partial: false }));
  } catch (error) {
    if (error instanceof ValidationError) return [];
    throw error;
  }
}

/**
 * POST /posts: a new post by the caller under the first free slug of its title; tags not seen
 * before are created. The post, its tags and the counters are one transaction. `read` is the read
 * made with the token (createReads).
 */
export function createPost(caller: Caller, body: Input, read: BatchResult): Promise<PostRecord> {
  const input = parsePostInput(body, { partial: false });
  const title = input.title!;
  const base = slugify(title);
  const toRead = keysToRead(input);
  return withRetries(async (attempt) => {
    const current = await readForAttempt(attempt, read, toRead);
    const slug = await firstFreeSlug({ base, keyOf: keys.post, window: POST_SLUG_WINDOW, firstWindow: current });
    const tags = await resolveTags(input.tags ?? [], current);
    const now = isoTimestamp();
    const post: PostRecord = {
      id: randomUUID(),
      slug,
      slug_base: base,
      author: caller.username,
      author_id: caller.userId,
      title,
      description: input.description!,
      created: now,
      modified: now,
      publish: input.publish ?? false,
      is_featured: false,
      tags: tags.tags.map((tag) => tag.title),
      tag_slugs: tags.tags.map((tag) => tag.slug),
      keywords: input.keywords ?? null,
      meta_description: input.meta_description ?? null,
      rating_likes: 0,
      rating_dislikes: 0,
      total_visitors: 0,
      total_favorites: 0,
      version: 1,
    };
    await transactWrite([
      { write: tx.put(postToItem(post), { expression: 'attribute_not_exists(PK)' }) },
      ...counterWrites(post.author, null, post, tags.created),
    ]);
    return post;
  });
}
