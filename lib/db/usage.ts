import { AsyncLocalStorage } from 'node:async_hooks';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';

// What one request costs in DynamoDB: the calls its code sends and the capacity DynamoDB reports
// for them. A middleware on the one client (lib/db/client.ts) adds to the usage of the request it
// runs in (AsyncLocalStorage, set by lib/http/endpoint.ts around each invocation); outside a request
// (admin CLI, scripts) it does nothing and leaves the calls unchanged.

export interface DynamoUsage {
  /** Commands sent (one per call, however often the SDK retried it). */
  calls: number;
  /** Capacity units DynamoDB reported as consumed (ReturnConsumedCapacity=TOTAL). */
  readUnits: number;
  writeUnits: number;
  /** Set on the usage of a stream batch (lib/streams/consumer.ts): work that no request waits for. */
  stream?: true;
}

const requests = new AsyncLocalStorage<DynamoUsage>();

/** Runs `work` with a fresh usage record that its DynamoDB calls add to. */
export function withDynamoUsage<T>(usage: DynamoUsage, work: () => Promise<T>): Promise<T> {
  return requests.run(usage, work);
}

export const emptyUsage = (): DynamoUsage => ({ calls: 0, readUnits: 0, writeUnits: 0 });

/** The usage of the request this code runs in (withDynamoUsage), if any. */
export function currentDynamoUsage(): DynamoUsage | undefined {
  return requests.getStore();
}

/** Operations that report consumed capacity when asked. */
const READS = new Set(['GetItem', 'BatchGetItem', 'Query', 'Scan', 'TransactGetItems']);
const WRITES = new Set(['PutItem', 'UpdateItem', 'DeleteItem', 'BatchWriteItem', 'TransactWriteItems']);

/** One `ConsumedCapacity` entry of a DynamoDB answer. */
export interface Capacity {
  CapacityUnits?: number;
  ReadCapacityUnits?: number;
  WriteCapacityUnits?: number;
}

/**
 * The read and write units of an answer's `ConsumedCapacity`: split as DynamoDB reports them, or,
 * when it reports one total, counted as the operation's kind.
 */
export function capacityUnits(operation: string, consumed: Capacity | Capacity[] | undefined): { read: number; write: number } {
  const units = { read: 0, write: 0 };
  for (const entry of consumed === undefined ? [] : Array.isArray(consumed) ? consumed : [consumed]) {
    if (entry.ReadCapacityUnits !== undefined || entry.WriteCapacityUnits !== undefined) {
      units.read += entry.ReadCapacityUnits ?? 0;
      units.write += entry.WriteCapacityUnits ?? 0;
    } else if (WRITES.has(operation)) {
      units.write += entry.CapacityUnits ?? 0;
    } else {
      units.read += entry.CapacityUnits ?? 0;
    }
  }
  return units;
}

export const USAGE_MIDDLEWARE = 'communityPostsRequestUsage';

/** Attaches the usage meter to a client (once). */
export function trackDynamoUsage(client: DynamoDBClient): void {
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const usage = requests.getStore();
      if (!usage) return next(args);
      usage.calls += 1;
      const operation = String(context.commandName ?? '').replace(/Command$/, '');
      const input = args.input as Record<string, unknown>;
      const ask = (READS.has(operation) || WRITES.has(operation)) && input.ReturnConsumedCapacity === undefined;
      const result = await next(ask ? { ...args, input: { ...input, ReturnConsumedCapacity: 'TOTAL' } } : args);
      const units = capacityUnits(operation, (result.output as { ConsumedCapacity?: Capacity | Capacity[] }).ConsumedCapacity);
      usage.readUnits += units.read;
      usage.writeUnits += units.write;
      return result;
    },
    { step: 'initialize', name: USAGE_MIDDLEWARE, override: true },
  );
}
