import { keys, type Key } from '../db/keys.ts';
import { transactWrite, tx, type TxWrite } from '../db/transact.ts';
import { NotFound, ValidationError } from '../errors.ts';
import { candidateKeys, firstFreeSlug } from '../free-slug.ts';
import { withRetries } from '../retry.ts';
import { couldBeSlug } from '../slug.ts';
import { slugify } from '../slugify.ts';
import { isoTimestamp } from '../time.ts';
import type { ReadAsCaller } from '../auth.ts';
import type { Input } from '../validation.ts';
import { counterWrites } from './counters.ts';
import { parsePostInput, type PostInput } from './input.ts';
import { atVersion, ownedPost } from './ownership.ts';
import { getPost, newPostId, storedPost } from './read.ts';
import { postItem, type PostRecord } from './record.ts';
import { resolveTags, tagKeys } from './tag-set.ts';

// How many post slug candidates (`base`, `base-1`, ...) are read with the other reads.
const POST_SLUG_WINDOW = 5;

const absent = { expression: 'attribute_not_exists(PK)' };

export function createPost(readAsCaller: ReadAsCaller, body: Input): Promise<PostRecord> {
  const input = parsePostInput(body, { partial: false });
  const title = input.title!;
  const base = slugify(title);
  const titles = input.tags ?? [];
  return withRetries(async () => {
    const { caller: who, read } = await readAsCaller([...candidateKeys(base, keys.post, POST_SLUG_WINDOW), ...tagKeys(titles)]);
    const slug = await firstFreeSlug({ base, keyOf: keys.post, window: POST_SLUG_WINDOW, firstWindow: read });
    const tags = await resolveTags(titles, read);
    const now = isoTimestamp();
    const post: PostRecord = {
      id: newPostId(),
      slug,
      slug_base: base,
      author: who.username,
      author_id: who.userId,
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
    await transactWrite([{ write: tx.put(postItem(post), absent) }, ...counterWrites(post.author, null, post, tags.created)]);
    return post;
  });
}

export function updatePost(readAsCaller: ReadAsCaller, slug: string, body: Input): Promise<PostRecord> {
  // Validation problems are reported only after the 404 and 403 checks, as DRF orders them.
  let input: PostInput = {};
  let invalid: ValidationError | undefined;
  try {
    input = parsePostInput(body, { partial: true });
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    invalid = error;
  }
  const base = input.title !== undefined ? slugify(input.title) : undefined;
  if (!couldBeSlug(slug)) return Promise.reject(new NotFound());
  const toRead: Key[] = [keys.post(slug)];
  if (base !== undefined) toRead.push(...candidateKeys(base, keys.post, POST_SLUG_WINDOW));
  if (input.tags) toRead.push(...tagKeys(input.tags));

  return withRetries(async () => {
    const { caller: who, read } = await readAsCaller(toRead);
    const before = ownedPost(storedPost(read, slug), who);
    if (invalid) throw invalid;

    let newSlug = before.slug;
    let slugBase = before.slug_base;
    if (base !== undefined && base !== before.slug_base) {
      newSlug = await firstFreeSlug({ base, keyOf: keys.post, window: POST_SLUG_WINDOW, firstWindow: read, own: before.slug });
      slugBase = base;
    }
    const tags = input.tags ? await resolveTags(input.tags, read) : undefined;
    const after: PostRecord = {
      ...before,
      ...(input.title !== undefined ? { title: input.title } : {}),
      ...(input.description !== undefined ? { description: input.description } : {}),
      ...(input.keywords !== undefined ? { keywords: input.keywords } : {}),
      ...(input.meta_description !== undefined ? { meta_description: input.meta_description } : {}),
      ...(input.publish !== undefined ? { publish: input.publish } : {}),
      ...(tags ? { tags: tags.tags.map((tag) => tag.title), tag_slugs: tags.tags.map((tag) => tag.slug) } : {}),
      slug: newSlug,
      slug_base: slugBase,
      modified: isoTimestamp(),
      version: before.version + 1,
    };
    const postWrites: TxWrite[] =
      newSlug === before.slug
        ? [{ write: tx.put(postItem(after), atVersion(before.version)) }]
        : [{ write: tx.put(postItem(after), absent) }, { write: tx.delete(keys.post(before.slug), atVersion(before.version)) }];
    await transactWrite([...postWrites, ...counterWrites(before.author, before, after, tags?.created ?? [])]);
    return after;
  });
}

/** Sets is_featured (an administrator's action) and keeps the author's counter exact. */
export function setFeatured(slug: string, featured: boolean): Promise<PostRecord> {
  return withRetries(async () => {
    const before = await getPost(slug);
    if (!before) throw new NotFound();
    if (before.is_featured === featured) return before;
    const after = { ...before, is_featured: featured, version: before.version + 1 };
    await transactWrite([
      { write: tx.put(postItem(after), atVersion(before.version)) },
      ...counterWrites(before.author, before, after, []),
    ]);
    return after;
  });
}
