import type { Item } from '#lib/db/batch.ts';
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

/** The two puts that create a tag: the tag under its slug and the claim on its lower-cased title. */
export function newTagWrites(tag: TagRef, totalPosts: number, onTaken: TagTaken = {}): TxWrite[] {
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

/** Adds `delta` to an existing tag's total_posts. */
export function tagCounterWrite(slug: string, delta: number): TxWrite {
  return { write: tx.update(keys.tag(slug), { expression: 'ADD total_posts :delta', values: { ':delta': delta } }, { expression: 'attribute_exists(PK)' }) };
}
