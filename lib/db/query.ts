import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { tableName } from '#lib/config.ts';
import { InvalidPage } from '#lib/errors.ts';
import { pageOfRead, skippedBefore, type Page, type PageRequest } from '#lib/pager.ts';
import type { Item } from './batch.ts';
import { db } from './client.ts';
import { decodeCursor, encodeCursor } from './cursor.ts';
import { INDEXES, PARTITION_KEY, SORT_KEY, type IndexName } from './table.ts';
import type { Expression } from './transact.ts';

/** One list: a partition of an index, newest (highest sort key) first, optionally filtered. */
export interface ListQuery {
  index: IndexName;
  partition: string;
  filter?: Expression;
}

// A filtered Query's Limit would count items read before the filter, so a filtered list reads
// without one: each call scans up to DynamoDB's 1 MB page and keeps every match, so page 1 of a
// search costs one call until the index holds more than 1 MB.

function keyAttributes(list: ListQuery): string[] {
  const index = INDEXES[list.index];
  return [...new Set([PARTITION_KEY, SORT_KEY, index.partitionKey, index.sortKey])];
}

function pick(item: Item, attributes: string[]): Record<string, string> {
  return Object.fromEntries(attributes.map((name) => [name, String(item[name])]));
}

/**
 * What a cursor of `list` is bound to: the index and partition (the endpoint with its path
 * parameter, and the sort), the filter's values (a `publish` filter, a tag search) and the words
 * of a post search. A cursor is valid only for the list it was made for.
 */
function cursorBinding(list: ListQuery, words: readonly string[]): string {
  return JSON.stringify([list.index, list.partition, list.filter?.values ?? null, words]);
}

/** The cursor of a page of `list` (searched for `words`) that starts right after `item`. */
export function cursorAfterItem(list: ListQuery, item: Item, words: readonly string[] = []): string {
  return encodeCursor(pick(item, keyAttributes(list)), cursorBinding(list, words));
}

/** Where a page of `list` (searched for `words`) starts when reached by `cursor`; a cursor of another list is an invalid page. */
export function cursorStart(list: ListQuery, cursor: string, words: readonly string[] = []): Record<string, string> {
  const index = INDEXES[list.index];
  return decodeCursor(cursor, keyAttributes(list), { attribute: index.partitionKey, value: list.partition }, cursorBinding(list, words));
}

/** One call: up to `limit` items of the list (matching its filter; without a limit, DynamoDB's 1 MB page) from `startKey`, and where the next call starts. */
export async function queryItems(
  list: ListQuery,
  limit: number | undefined,
  startKey?: Record<string, unknown>,
): Promise<{ items: Item[]; next?: Record<string, unknown> }> {
  const response = await query(list, limit, startKey, false);
  return { items: response.Items ?? [], ...(response.LastEvaluatedKey ? { next: response.LastEvaluatedKey } : {}) };
}

/** One call: up to `limit` items of the list (matching its filter) whose sort key is above `above`, highest first. */
export async function queryAbove(list: ListQuery, above: string, limit: number): Promise<Item[]> {
  return (await query(list, limit, undefined, false, above)).Items ?? [];
}

async function query(list: ListQuery, limit: number | undefined, startKey: Record<string, unknown> | undefined, keysOnly: boolean, above?: string) {
  const index = INDEXES[list.index];
  const names: Record<string, string> = { '#pk': index.partitionKey, ...list.filter?.names };
  const values: Record<string, unknown> = { ':pk': list.partition, ...list.filter?.values };
  if (above !== undefined) {
    names['#sk'] = index.sortKey;
    values[':above'] = above;
  }
  const attributes = keyAttributes(list);
  if (keysOnly) attributes.forEach((name, i) => (names[`#k${i}`] = name));
  return db().send(
    new QueryCommand({
      TableName: tableName(),
      IndexName: index.name,
      KeyConditionExpression: above === undefined ? '#pk = :pk' : '#pk = :pk AND #sk > :above',
      ...(list.filter ? { FilterExpression: list.filter.expression } : {}),
      ...(keysOnly ? { ProjectionExpression: attributes.map((_, i) => `#k${i}`).join(', ') } : {}),
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
      ScanIndexForward: false,
      ...(limit !== undefined ? { Limit: limit } : {}),
      ...(startKey ? { ExclusiveStartKey: startKey } : {}),
    }),
  );
}

// Limit is a 32-bit integer, and a page number may ask to skip billions of items. Every item of
// an index is over 100 bytes, so a call stops at DynamoDB's 1 MB before it reads this many.
const SKIP_PER_CALL = 10_000;

/** The key of the `count`-th matching item: where page N starts when reached by number. */
async function skip(list: ListQuery, count: number): Promise<Record<string, string>> {
  let remaining = count;
  let startKey: Record<string, unknown> | undefined;
  for (;;) {
    const limit = list.filter ? undefined : Math.min(remaining, SKIP_PER_CALL);
    const response = await query(list, limit, startKey, true);
    for (const item of response.Items ?? []) {
      remaining -= 1;
      if (remaining === 0) return pick(item, keyAttributes(list));
    }
    if (!response.LastEvaluatedKey) throw new InvalidPage();
    startKey = response.LastEvaluatedKey;
  }
}

/**
 * One page of a list. Reads one item past the page to learn whether a next page exists; a filtered
 * list keeps reading until the page is full or the index ends.
 */
export async function queryPage(list: ListQuery, request: PageRequest): Promise<Page<Item>> {
  let startKey: Record<string, unknown> | undefined;
  if (request.cursor) {
    startKey = cursorStart(list, request.cursor);
  } else if (request.page > 1) {
    startKey = await skip(list, skippedBefore(request));
  }
  const items: Item[] = [];
  for (;;) {
    const wanted = request.pageSize + 1 - items.length;
    const limit = list.filter ? undefined : wanted;
    const response = await query(list, limit, startKey, false);
    items.push(...(response.Items ?? []));
    if (items.length > request.pageSize || !response.LastEvaluatedKey) break;
    startKey = response.LastEvaluatedKey;
  }
  return pageOfRead(
    request,
    items,
    (item) => cursorAfterItem(list, item),
    (item) => item,
  );
}

/**
 * Every item of one table partition (those whose sort key lies in `sortKeyRange`, both ends
 * included, when given), a page (up to DynamoDB's 1 MB) at a time, with only `attributes` when
 * given: what the stream consumer walks to remove a deleted post's visits, votes and favorites,
 * and a search reads of the postings of a word. Strongly consistent when `consistent` (a removal that must see every
 * item written).
 */
export async function* partitionPages(
  partition: string,
  options: { attributes?: readonly string[]; sortKeyRange?: { from: string; to: string }; consistent?: boolean; table?: string } = {},
): AsyncGenerator<Item[]> {
  const { attributes, sortKeyRange, consistent = false, table = tableName() } = options;
  const names: Record<string, string> = { '#pk': PARTITION_KEY, ...(sortKeyRange ? { '#sk': SORT_KEY } : {}) };
  attributes?.forEach((name, i) => (names[`#a${i}`] = name));
  let startKey: Record<string, unknown> | undefined;
  do {
    const response = await db().send(
      new QueryCommand({
        TableName: table,
        KeyConditionExpression: sortKeyRange ? '#pk = :pk AND #sk BETWEEN :from AND :to' : '#pk = :pk',
        ...(attributes ? { ProjectionExpression: attributes.map((_, i) => `#a${i}`).join(', ') } : {}),
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: { ':pk': partition, ...(sortKeyRange ? { ':from': sortKeyRange.from, ':to': sortKeyRange.to } : {}) },
        ...(consistent ? { ConsistentRead: true } : {}),
        ...(startKey ? { ExclusiveStartKey: startKey } : {}),
      }),
    );
    yield response.Items ?? [];
    startKey = response.LastEvaluatedKey;
  } while (startKey);
}

/**
 * One call: up to `limit` items of one table partition in sort key order (oldest first for the
 * comments' partitions), from just after `after` when given, strongly consistent unless
 * `consistent: false`; `keysOnly`: the sort keys alone. And whether the partition goes on.
 */
export async function partitionItemsAfter(
  partition: string,
  options: { after?: string; limit?: number; consistent?: boolean; keysOnly?: boolean; startKey?: Record<string, unknown> },
): Promise<{ items: Item[]; next?: Record<string, unknown> }> {
  const { after, limit, consistent = true, keysOnly = false, startKey } = options;
  const response = await db().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: after === undefined ? '#pk = :pk' : '#pk = :pk AND #sk > :after',
      ExpressionAttributeNames: { '#pk': PARTITION_KEY, ...(after === undefined && !keysOnly ? {} : { '#sk': SORT_KEY }) },
      ExpressionAttributeValues: { ':pk': partition, ...(after === undefined ? {} : { ':after': after }) },
      ...(keysOnly ? { ProjectionExpression: '#sk' } : {}),
      ScanIndexForward: true,
      ConsistentRead: consistent,
      ...(limit !== undefined ? { Limit: limit } : {}),
      ...(startKey ? { ExclusiveStartKey: startKey } : {}),
    }),
  );
  return { items: response.Items ?? [], ...(response.LastEvaluatedKey ? { next: response.LastEvaluatedKey } : {}) };
}

/**
 * One call: the first `limit` items of one table partition, the highest sort key first (those
 * below `below` when given), and whether the partition goes on past them: how a search reads a
 * term's postings, newest post first (lib/search/find.ts).
 */
export async function partitionHead(
  partition: string,
  limit: number,
  options: { below?: string; table?: string } = {},
): Promise<{ items: Item[]; more: boolean }> {
  const { below, table = tableName() } = options;
  const response = await db().send(
    new QueryCommand({
      TableName: table,
      KeyConditionExpression: below === undefined ? '#pk = :pk' : '#pk = :pk AND #sk < :below',
      ExpressionAttributeNames: { '#pk': PARTITION_KEY, ...(below === undefined ? {} : { '#sk': SORT_KEY }) },
      ExpressionAttributeValues: { ':pk': partition, ...(below === undefined ? {} : { ':below': below }) },
      ScanIndexForward: false,
      Limit: limit,
    }),
  );
  return { items: response.Items ?? [], more: response.LastEvaluatedKey !== undefined };
}

/**
 * The items of a list (a partition of an index, optionally filtered) whose sort key begins with
 * `beginsWith` when given, in sort key order (lowest first unless `forward: false`), a page at a
 * time: `limit` items read per call when given (before the filter), else DynamoDB's 1 MB. Stops
 * when the caller stops iterating: a read bounded by what the caller keeps. What the sitemap reads
 * (lib/pages/sitemap.ts).
 */
export async function* listRangePages(list: ListQuery, options: { beginsWith?: string; forward?: boolean; limit?: number } = {}): AsyncGenerator<Item[]> {
  const { beginsWith, forward = true, limit } = options;
  const index = INDEXES[list.index];
  const names: Record<string, string> = { '#pk': index.partitionKey, ...(beginsWith === undefined ? {} : { '#sk': index.sortKey }), ...list.filter?.names };
  const values: Record<string, unknown> = { ':pk': list.partition, ...(beginsWith === undefined ? {} : { ':prefix': beginsWith }), ...list.filter?.values };
  let startKey: Record<string, unknown> | undefined;
  do {
    const response = await db().send(
      new QueryCommand({
        TableName: tableName(),
        IndexName: index.name,
        KeyConditionExpression: beginsWith === undefined ? '#pk = :pk' : '#pk = :pk AND begins_with(#sk, :prefix)',
        ...(list.filter ? { FilterExpression: list.filter.expression } : {}),
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
        ScanIndexForward: forward,
        ...(limit !== undefined ? { Limit: limit } : {}),
        ...(startKey ? { ExclusiveStartKey: startKey } : {}),
      }),
    );
    yield response.Items ?? [];
    startKey = response.LastEvaluatedKey;
  } while (startKey);
}
