import { dynamodb } from '../../lib/db/client.ts';

// Meters the DynamoDB calls of this process on the one client every handler uses: calls by
// operation (one per command sent, whatever the SDK retries) and, when asked, the consumed
// capacity DynamoDB reports (the meter sets ReturnConsumedCapacity=TOTAL on every call).

export interface Usage {
  calls: Record<string, number>;
  totalCalls: number;
  /** Read and write capacity units, as DynamoDB reports them. */
  rcu: number;
  wcu: number;
}

export interface Meter {
  measure(action: () => Promise<unknown>): Promise<Usage>;
  reset(): void;
  usage(): Usage;
  detach(): void;
}

interface CapacityEntry {
  CapacityUnits?: number;
  ReadCapacityUnits?: number;
  WriteCapacityUnits?: number;
}

const WRITE_OPERATIONS = new Set(['PutItem', 'UpdateItem', 'DeleteItem', 'BatchWriteItem', 'TransactWriteItems']);

export function attachMeter(options: { capacity: boolean }): Meter {
  const calls = new Map<string, number>();
  let rcu = 0;
  let wcu = 0;
  const name = `meter-${Math.random().toString(36).slice(2)}`;
  dynamodb().middlewareStack.add(
    (next, context) => async (args) => {
      const operation = String(context.commandName ?? 'unknown').replace(/Command$/, '');
      calls.set(operation, (calls.get(operation) ?? 0) + 1);
      const input = args.input as Record<string, unknown>;
      if (options.capacity && !('ReturnConsumedCapacity' in input) && operation !== 'DescribeTable') input.ReturnConsumedCapacity = 'TOTAL';
      const result = await next(args);
      const consumed = (result.output as { ConsumedCapacity?: CapacityEntry | CapacityEntry[] }).ConsumedCapacity;
      for (const entry of consumed === undefined ? [] : Array.isArray(consumed) ? consumed : [consumed]) {
        const split = entry.ReadCapacityUnits !== undefined || entry.WriteCapacityUnits !== undefined;
        if (split) {
          rcu += entry.ReadCapacityUnits ?? 0;
          wcu += entry.WriteCapacityUnits ?? 0;
        } else if (WRITE_OPERATIONS.has(operation)) {
          wcu += entry.CapacityUnits ?? 0;
        } else {
          rcu += entry.CapacityUnits ?? 0;
        }
      }
      return result;
    },
    { step: 'initialize', name },
  );
  const usage = (): Usage => ({
    calls: Object.fromEntries(calls),
    totalCalls: [...calls.values()].reduce((sum, n) => sum + n, 0),
    rcu,
    wcu,
  });
  const reset = () => {
    calls.clear();
    rcu = 0;
    wcu = 0;
  };
  return {
    usage,
    reset,
    async measure(action) {
      reset();
      await action();
      return usage();
    },
    detach: () => {
      dynamodb().middlewareStack.remove(name);
    },
  };
}
