import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import type { Item } from './batch.ts';
import { db } from './client.ts';
import type { Expression } from './transact.ts';

// Scans, for the operator's commands only (a rebuild of the search index, lib/search/reindex.ts):
// no request of the API scans a table.

export interface ScanOptions {
  table: string;
  filter?: Expression;
  /** Only these attributes of each item. */
  attributes?: readonly string[];
  /** Items read per call (before the filter): what one page costs. */
  limit?: number;
  consistent?: boolean;
}

/** One call of a scan from `startKey`: the items that passed the filter, and where the next call starts (none at the end). */
export async function scanPage(options: ScanOptions, startKey?: Record<string, unknown>): Promise<{ items: Item[]; next?: Record<string, unknown> }> {
  const { table, filter, attributes, limit, consistent = false } = options;
  const names: Record<string, string> = { ...filter?.names };
  attributes?.forEach((name, i) => (names[`#a${i}`] = name));
  const response = await db().send(
    new ScanCommand({
      TableName: table,
      ...(filter ? { FilterExpression: filter.expression } : {}),
      ...(filter?.values ? { ExpressionAttributeValues: filter.values } : {}),
      ...(Object.keys(names).length > 0 ? { ExpressionAttributeNames: names } : {}),
      ...(attributes ? { ProjectionExpression: attributes.map((_, i) => `#a${i}`).join(', ') } : {}),
      ...(limit !== undefined ? { Limit: limit } : {}),
      ...(startKey ? { ExclusiveStartKey: startKey } : {}),
      ConsistentRead: consistent,
    }),
  );
  return { items: response.Items ?? [], ...(response.LastEvaluatedKey ? { next: response.LastEvaluatedKey } : {}) };
}

/** How many items of the table pass the filter: a scan of it all that returns only counts. */
export async function scanCount(options: Omit<ScanOptions, 'attributes'>): Promise<number> {
  const { table, filter } = options;
  let count = 0;
  let startKey: Record<string, unknown> | undefined;
  do {
    const response = await db().send(
      new ScanCommand({
        TableName: table,
        Select: 'COUNT',
        ...(filter ? { FilterExpression: filter.expression } : {}),
        ...(filter?.values ? { ExpressionAttributeValues: filter.values } : {}),
        ...(filter?.names ? { ExpressionAttributeNames: filter.names } : {}),
        ...(startKey ? { ExclusiveStartKey: startKey } : {}),
      }),
    );
    count += response.Count ?? 0;
    startKey = response.LastEvaluatedKey;
  } while (startKey);
  return count;
}
