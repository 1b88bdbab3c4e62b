import { keys } from '#lib/db/keys.ts';
import { addWrites, TOTALS, totalWrites } from '#lib/db/totals.ts';
import type { TxWrite } from '#lib/db/transact.ts';
import { newTagsTotalWrites, newTagWrites, tagCounterWrite, type TagRef } from '#lib/tags/tag.ts';
import { profileCounterWrite } from '#lib/profiles/profile.ts';
import type { PostRecord } from './post.ts';

const exists = (post: PostRecord | null) => (post ? 1 : 0);
const featured = (post: PostRecord | null) => (post?.is_featured ? 1 : 0);
const published = (post: PostRecord | null) => (post?.publish ? 1 : 0);
const publishedFeatured = (post: PostRecord | null) => (post?.publish && post.is_featured ? 1 : 0);

/**
 * The counter changes of a post going from `before` to `after` (null: not existing), as ADDs
 * that join the post's own write in one transaction: the author's total_posts and
 * total_featured_posts, each tag's total_posts and featured_posts, the creation of new tags, the
 * site's totals (a shard chosen by the post id) and the author's own post counts (GET /posts/me).
 */
export function counterWrites(author: string, before: PostRecord | null, after: PostRecord | null, newTags: TagRef[]): TxWrite[] {
  const writes: TxWrite[] = [];
  const postsDelta = published(after) - published(before);
  const featuredDelta = publishedFeatured(after) - publishedFeatured(before);
  if (postsDelta !== 0 || featuredDelta !== 0) writes.push(profileCounterWrite(author, postsDelta, featuredDelta));
  const post = (after ?? before)!;
  writes.push(...totalWrites(TOTALS.posts, post.id, { posts: postsDelta, featured: featuredDelta }));
  writes.push(...userPostTotalsWrites(post.author_id, before, after));
  const tagDeltas = new Map<string, { posts: number; featured: number }>();
  const count = (post: PostRecord | null, sign: number) => {
    if (!post?.publish) return;
    for (const slug of post.tag_slugs) {
      const delta = tagDeltas.get(slug) ?? { posts: 0, featured: 0 };
      tagDeltas.set(slug, { posts: delta.posts + sign, featured: delta.featured + (post.is_featured ? sign : 0) });
    }
  };
  count(before, -1);
  count(after, 1);
  const createdSlugs = new Set(newTags.map((tag) => tag.slug));
  for (const tag of newTags) {
    const delta = tagDeltas.get(tag.slug);
    writes.push(...newTagWrites(tag, delta?.posts ?? 0, delta?.featured ?? 0));
  }
  writes.push(...newTagsTotalWrites(newTags));
  for (const [slug, delta] of tagDeltas) {
    if ((delta.posts !== 0 || delta.featured !== 0) && !createdSlugs.has(slug)) writes.push(tagCounterWrite(slug, delta.posts, delta.featured));
  }
  return writes;
}

/** The change of the author's own post counts: all, published, featured, published and featured. */
function userPostTotalsWrites(authorId: number, before: PostRecord | null, after: PostRecord | null): TxWrite[] {
  return addWrites(keys.userPostTotals(authorId), {
    posts: exists(after) - exists(before),
    published: published(after) - published(before),
    featured: featured(after) - featured(before),
    published_featured: publishedFeatured(after) - publishedFeatured(before),
  });
}

/** The key of a user's own post counts. */
export const userPostTotalsKey = (userId: number) => keys.userPostTotals(userId);

/**
 * How many of a user's posts GET /posts/me lists, from their counts item: all, or only the
 * published (`publish` true) or drafts (false); with `featuredOnly`, the featured ones of those.
 */
export function userPostTotal(item: Record<string, unknown> | undefined, publish: boolean | undefined, featuredOnly: boolean): number {
  const count = (name: string) => Number(item?.[name] ?? 0);
  const all = featuredOnly ? count('featured') : count('posts');
  const ofPublished = featuredOnly ? count('published_featured') : count('published');
  const total = publish === undefined ? all : publish ? ofPublished : all - ofPublished;
  return Math.max(0, total);
}
