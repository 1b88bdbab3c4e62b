import { BatchGetCommand, BatchWriteCommand, type BatchGetCommandOutput } from '@aws-sdk/lib-dynamodb';
import { tableName } from '#lib/config.ts';
import { backoffWithin, currentDeadline, retryStats } from '#lib/retry.ts';
import { db } from './client.ts';
import { keyOf, keyString, type Key } from './keys.ts';

export type Item = Record<string, unknown>;

// DynamoDB hands back unprocessed keys or items when throttled: wait a little longer each round,
// within the request's retry budget (lib/retry.ts); past it the client gets a 503.
function backoff(round: number, deadline: number): Promise<void> {
  if (round === 0) return Promise.resolve();
  retryStats.batchRetries += 1;
  return backoffWithin(deadline, 'throttling', round);
}

/**
 * Reads several items of `table` (the table's by default), strongly consistent unless
 * `consistent: false` (half the capacity): one BatchGetItem per 100 keys, sent in parallel, so any
 * number of keys costs one round trip (plus resends of what DynamoDB left unprocessed).
 */
export async function batchGet(keyList: Key[], projection?: string[], { consistent = true, table = tableName() } = {}): Promise<BatchResult> {
  const deadline = currentDeadline();
  const unique = new Map(keyList.map((key) => [keyString(key), key]));
  const found = new Map<string, Item>();
  const all = [...unique.values()];
  const projectionPart = projection
    ? {
        ProjectionExpression: projection.map((_, i) => `#p${i}`).join(', '),
        ExpressionAttributeNames: Object.fromEntries(projection.map((name, i) => [`#p${i}`, name])),
      }
    : {};
  const readChunk = async (chunk: Key[]) => {
    let pending: Record<string, unknown>[] | undefined = chunk.map((k) => ({ ...k }));
    for (let round = 0; pending && pending.length > 0; round++) {
      await backoff(round, deadline);
      const response: BatchGetCommandOutput = await db().send(
        new BatchGetCommand({
          RequestItems: { [table]: { Keys: pending, ConsistentRead: consistent, ...projectionPart } },
        }),
      );
      for (const item of response.Responses?.[table] ?? []) {
        found.set(keyString(item as Key), item);
      }
      pending = response.UnprocessedKeys?.[table]?.Keys;
    }
  };
  const chunks: Key[][] = [];
  for (let start = 0; start < all.length; start += 100) chunks.push(all.slice(start, start + 100));
  await Promise.all(chunks.map(readChunk));
  return new BatchResult(found, all);
}

/** The items a batch read found, and the keys it asked for. */
export class BatchResult {
  constructor(
    private readonly items: Map<string, Item>,
    readonly keys: readonly Key[],
  ) {}

  static readonly EMPTY = new BatchResult(new Map(), []);

  /** A read of exactly these items' keys that found them all. */
  static of(items: Item[]): BatchResult {
    const keyList = items.map(keyOf);
    return new BatchResult(new Map(keyList.map((key, i) => [keyString(key), items[i]!])), keyList);
  }

  get(key: Key): Item | undefined {
    return this.items.get(keyString(key));
  }

  has(key: Key): boolean {
    return this.items.has(keyString(key));
  }
}

/**
 * The read an operation's attempt works from: on the first attempt the one the endpoint made with
 * the token (lib/http/authentication.ts), on a retry after a lost race a fresh read of the same
 * keys (the token's among them).
 */
export function readForAttempt(attempt: number, first: BatchResult): Promise<BatchResult> {
  return attempt === 1 ? Promise.resolve(first) : batchGet([...first.keys]);
}

type WriteRequest = { PutRequest: { Item: Item } } | { DeleteRequest: { Key: Key } };

/** Calls of one batch write in flight at once. */
const WRITE_CALLS_IN_FLIGHT = 3;

/** Sends many writes to `table`, 25 a call, some calls at once, resending what DynamoDB leaves unprocessed. */
async function batchWrite(requests: WriteRequest[], table: string): Promise<void> {
  const deadline = currentDeadline();
  const chunks: WriteRequest[][] = [];
  for (let start = 0; start < requests.length; start += 25) chunks.push(requests.slice(start, start + 25));
  const send = async () => {
    for (let chunk = chunks.shift(); chunk; chunk = chunks.shift()) {
      let pending: WriteRequest[] | undefined = chunk;
      for (let round = 0; pending && pending.length > 0; round++) {
        await backoff(round, deadline);
        const response = await db().send(new BatchWriteCommand({ RequestItems: { [table]: pending } }));
        pending = response.UnprocessedItems?.[table] as WriteRequest[] | undefined;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(WRITE_CALLS_IN_FLIGHT, chunks.length) }, send));
}

/** Deletes many items (of the main table unless `table` names another). */
export function batchDelete(keyList: Key[], table = tableName()): Promise<void> {
  return batchWrite(
    keyList.map((key) => ({ DeleteRequest: { Key: { PK: key.PK, SK: key.SK } } })),
    table,
  );
}

/** Writes many items whole (to the main table unless `table` names another). */
export function batchPut(items: Item[], table = tableName()): Promise<void> {
  return batchWrite(
    items.map((item) => ({ PutRequest: { Item: item } })),
    table,
  );
}
