import { keys, listPartitions, listSortKeys, type Key } from './db/keys.ts';
import { INDEXES } from './db/table.ts';
import { queryPage, type Page } from './db/query.ts';
import { transactWrite, tx, type TxWrite } from './db/transact.ts';
import type { Item } from './db/batch.ts';
import { Conflict } from './errors.ts';
import { isoTimestamp } from './time.ts';
import { couldBeSlug } from './slug.ts';
import type { PageRequest } from './pagination.ts';

export const TAG_TITLE_MAX_LENGTH = 100;

export interface TagRef {
  title: string;
  slug: string;
}

/** The API shape of a tag, fields in the contract's order. */
export function toTag(item: Item) {
  return { title: String(item.title), slug: String(item.slug), total_posts: Number(item.total_posts ?? 0) };
}

/** The two puts that create a tag: the tag under its slug and the claim on its lower-cased title. */
export function newTagWrites(tag: TagRef, totalPosts: number, onTaken?: () => Error): TxWrite[] {
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
      ...(onTaken ? { onConditionFailed: onTaken } : {}),
    },
    {
      write: tx.put({ ...keys.tagTitle(tag.title), title: tag.title, slug: tag.slug }, absent),
      ...(onTaken ? { onConditionFailed: onTaken } : {}),
    },
  ];
}

export async function createTag(tag: TagRef): Promise<Item> {
  await transactWrite(newTagWrites(tag, 0, () => new Conflict('Tag already exists.')));
  return { title: tag.title, slug: tag.slug, total_posts: 0 };
}

/** The key of a tag; null for a slug that cannot exist (answered without a read). */
export function tagKey(slug: string): Key | null {
  return couldBeSlug(slug) ? keys.tag(slug) : null;
}

export function listTags(request: PageRequest, search?: string): Promise<Page> {
  return queryPage(
    {
      index: 'lists',
      partition: listPartitions.tags,
      ...(search
        ? { filter: { expression: 'contains(#title_lc, :q)', names: { '#title_lc': 'title_lc' }, values: { ':q': search.toLowerCase() } } }
        : {}),
    },
    request,
  );
}
