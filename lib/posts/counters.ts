import type { TxWrite } from '#lib/db/transact.ts';
import { newTagWrites, tagCounterWrite, type TagRef } from '#lib/tags/tag.ts';
import { profileCounterWrite } from '#lib/profiles/profile.ts';
import type { PostRecord } from './post.ts';

const published = (post: PostRecord | null) => (post?.publish ? 1 : 0);
const publishedFeatured = (post: PostRecord | null) => (post?.publish && post.is_featured ? 1 : 0);

/**
 * The counter changes of a post going from `before` to `after` (null: not existing), as ADDs
 * that join the post's own write in one transaction: the author's total_posts and
 * total_featured_posts, each tag's total_posts, and the creation of new tags.
 */
export function counterWrites(author: string, before: PostRecord | null, after: PostRecord | null, newTags: TagRef[]): TxWrite[] {
  const writes: TxWrite[] = [];
  const postsDelta = published(after) - published(before);
  const featuredDelta = publishedFeatured(after) - publishedFeatured(before);
  if (postsDelta !== 0 || featuredDelta !== 0) writes.push(profileCounterWrite(author, postsDelta, featuredDelta));
  const tagDeltas = new Map<string, number>();
  if (before?.publish) for (const slug of before.tag_slugs) tagDeltas.set(slug, (tagDeltas.get(slug) ?? 0) - 1);
  if (after?.publish) for (const slug of after.tag_slugs) tagDeltas.set(slug, (tagDeltas.get(slug) ?? 0) + 1);
  const createdSlugs = new Set(newTags.map((tag) => tag.slug));
  for (const tag of newTags) writes.push(...newTagWrites(tag, tagDeltas.get(tag.slug) ?? 0));
  for (const [slug, delta] of tagDeltas) {
    if (delta !== 0 && !createdSlugs.has(slug)) writes.push(tagCounterWrite(slug, delta));
  }
  return writes;
}
