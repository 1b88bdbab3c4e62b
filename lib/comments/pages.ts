import type { Item } from '#lib/db/batch.ts';
import { decodeCursor, encodeCursor } from '#lib/db/cursor.ts';
import { partitionItemsAfter } from '#lib/db/query.ts';
import { SORT_KEY } from '#lib/db/table.ts';
import { InvalidPage } from '#lib/errors.ts';
import { skippedBefore, type PageRequest } from '#lib/pager.ts';

// Pages of the comments' own partitions (a post's threads, a thread's replies), oldest first: a
// page starts after the sort key of the last item of the page before, which its cursor seals
// (lib/db/cursor.ts) for this list alone; a page by number first walks past the pages before it.

/** The most, and the default, of each comment list's page_size (docs/api.md). */
export const COMMENT_PAGE_SIZES = { threads: 20, replies: 50, user: 50 } as const;

/** One list of a partition: its name and partition bind its cursors. */
export interface PartitionList {
  name: 'threads' | 'replies';
  partition: string;
}

const binding = (list: PartitionList) => JSON.stringify(['comments', list.name, list.partition]);

export function cursorAfter(list: PartitionList, sortKey: string): string {
  return encodeCursor({ list: list.partition, after: sortKey }, binding(list));
}

/** The sort key a page starts after: a cursor's, or the last one a page by number skips (none for page 1). */
export async function pageStart(list: PartitionList, request: PageRequest, counts: (sortKey: string) => boolean): Promise<string | undefined> {
  if (request.cursor) return decodeCursor(request.cursor, ['list', 'after'], { attribute: 'list', value: list.partition }, binding(list)).after;
  const skip = skippedBefore(request);
  return skip > 0 ? skipItems(list.partition, skip, counts) : undefined;
}

/** The sort key of the `count`-th item of the partition that `counts`, read keys only; past the end is an invalid page. */
async function skipItems(partition: string, count: number, counts: (sortKey: string) => boolean): Promise<string> {
  let remaining = count;
  let startKey: Record<string, unknown> | undefined;
  for (;;) {
    const { items, next } = await partitionItemsAfter(partition, { keysOnly: true, consistent: false, ...(startKey ? { startKey } : {}) });
    for (const item of items) {
      const sortKey = String(item[SORT_KEY]);
      if (!counts(sortKey)) continue;
      remaining -= 1;
      if (remaining === 0) return sortKey;
    }
    if (!next) throw new InvalidPage();
    startKey = next;
  }
}

/**
 * Items of the partition after `after` until `enough` says the read holds what the page needs (or
 * the partition ends): one Query unless DynamoDB's 1 MB page cuts it first.
 */
export async function readAfter(partition: string, after: string | undefined, limit: number, enough: (items: Item[]) => boolean): Promise<Item[]> {
  const items: Item[] = [];
  let startKey: Record<string, unknown> | undefined;
  for (;;) {
    const read = await partitionItemsAfter(partition, {
      ...(after !== undefined ? { after } : {}),
      limit: limit - items.length,
      ...(startKey ? { startKey } : {}),
    });
    items.push(...read.items);
    if (!read.next || items.length >= limit || enough(items)) return items;
    startKey = read.next;
  }
}
