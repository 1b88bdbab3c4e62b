import type { BatchResult, Item } from '#lib/db/batch.ts';
import { TOTALS, totalKeys, totalOf, totalWrites } from '#lib/db/totals.ts';
import { keys, listPartitions, listSortKeys, type Key } from '#lib/db/keys.ts';
import { INDEXES } from '#lib/db/table.ts';
import { tx, type TxWrite } from '#lib/db/transact.ts';
import { couldBeSlug } from '#lib/slugs/rules.ts';
import { isoTimestamp } from '#lib/time.ts';

// The tag entity: its two items (the tag under its slug, and the claim on its lower-cased title),
// the list-index keys the tag carries, its counter, and its API shape.

export const TAG_TITLE_MAX_LENGTH = 100;

export interface TagRef {
  title: string;
  slug: string;
}

/** The API shape of a stored tag, fields in the contract's order. */
export function tagToApi(item: Item) {
  return { title: String(item.title), slug: String(item.slug), total_posts: Number(item.total_posts ?? 0) };
}

/** The key of a tag; null for a slug that cannot exist (answered without a read). */
export function tagKey(slug: string): Key | null {
  return couldBeSlug(slug) ? keys.tag(slug) : null;
}

/** The key of the claim on a tag title (case-insensitive), which holds the tag's title and slug. */
export function tagTitleKey(title: string): Key {
  return keys.tagTitle(title);
}

/** What a failed claim of a new tag's slug or title means for the client (default: a race, retried). */
export interface TagTaken {
  slug?: () => Error;
  title?: () => Error;
}

/**
 * The two puts that create a tag: the tag under its slug and the claim on its lower-cased title
 * (the count of tags is newTagsTotalWrites'). `featuredPosts`: how many of its `totalPosts` are featured.
 */
export function newTagWrites(tag: TagRef, totalPosts: number, featuredPosts = 0, onTaken: TagTaken = {}): TxWrite[] {
  const created = isoTimestamp();
  const absent = { expression: 'attribute_not_exists(PK)' };
  return [
    {
      write: tx.put(
        {
          ...keys.tag(tag.slug),
          [INDEXES.lists.partitionKey]: listPartitions.tags,
          [INDEXES.lists.sortKey]: listSortKeys.tag(created, tag.slug),
          title: tag.title,
          title_lc: tag.title.toLowerCase(),
          slug: tag.slug,
          total_posts: totalPosts,
          featured_posts: featuredPosts,
          created,
        },
        absent,
      ),
      ...(onTaken.slug ? { onConditionFailed: onTaken.slug } : {}),
    },
    {
      write: tx.put({ ...keys.tagTitle(tag.title), title: tag.title, slug: tag.slug }, absent),
      ...(onTaken.title ? { onConditionFailed: onTaken.title } : {}),
    },
  ];
}

/**
 * The count of tags raised by the tags a transaction creates: one write to one shard (chosen by
 * the first tag's slug), as a transaction may write an item only once.
 */
export function newTagsTotalWrites(tags: TagRef[]): TxWrite[] {
  return tags.length === 0 ? [] : totalWrites(TOTALS.tags, tags[0]!.slug, { tags: tags.length });
}

/** The keys of the count of tags, which GET /tags reads with its token. */
export const tagsTotalKeys = () => totalKeys(TOTALS.tags);

/** The number of tags, from the read of tagsTotalKeys(). */
export const tagsTotal = (read: BatchResult) => totalOf(read, TOTALS.tags, 'tags');

/** How many posts a tag's list holds (GET /posts/tagged/{slug}): its published posts, or the featured ones of them. */
export function taggedTotal(tag: Item, featuredOnly: boolean): number {
  return Math.max(0, Number((featuredOnly ? tag.featured_posts : tag.total_posts) ?? 0));
}

/** Adds `delta` to an existing tag's total_posts, and `featuredDelta` to its featured_posts. */
export function tagCounterWrite(slug: string, delta: number, featuredDelta = 0): TxWrite {
  return {
    write: tx.update(
      keys.tag(slug),
      { expression: 'ADD total_posts :delta, featured_posts :featured', values: { ':delta': delta, ':featured': featuredDelta } },
      { expression: 'attribute_exists(PK)' },
    ),
  };
}
