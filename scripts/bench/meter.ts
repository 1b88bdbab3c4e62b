import { dynamodb } from '#lib/db/client.ts';
import { capacityUnits, currentDynamoUsage, type Capacity } from '#lib/db/usage.ts';

// Meters the DynamoDB calls of this process on the one client every handler uses: calls by
// operation (one per command sent, whatever the SDK retries) and the consumed capacity DynamoDB
// reports. Inside a request the client's usage middleware (lib/db/usage.ts) has already asked for
// it (ReturnConsumedCapacity=TOTAL on every read and write). The calls of the table's stream
// consumer, which runs in this process too, are work no request waits for: they are left out, or
// metered alone (`{ of: 'stream' }`: what the asynchronous fan-out costs).

export interface Usage {
  calls: Record<string, number>;
  totalCalls: number;
  /**
   * Sequential round trips: the calls grouped by overlap in time, each group starting when nothing
   * was in flight. Calls sent in parallel (a token read and a list's query) make one.
   */
  rounds: number;
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

export function attachMeter({ of = 'requests' }: { of?: 'requests' | 'stream' } = {}): Meter {
  const calls = new Map<string, number>();
  let rcu = 0;
  let wcu = 0;
  let rounds = 0;
  let inFlight = 0;
  const name = `meter-${Math.random().toString(36).slice(2)}`;
  dynamodb().middlewareStack.add(
    (next, context) => async (args) => {
      if (Boolean(currentDynamoUsage()?.stream) !== (of === 'stream')) return next(args);
      const operation = String(context.commandName ?? 'unknown').replace(/Command$/, '');
      calls.set(operation, (calls.get(operation) ?? 0) + 1);
      if (inFlight === 0) rounds += 1;
      inFlight += 1;
      let result;
      try {
        result = await next(args);
      } finally {
        inFlight -= 1;
      }
      const units = capacityUnits(operation, (result.output as { ConsumedCapacity?: Capacity | Capacity[] }).ConsumedCapacity);
      rcu += units.read;
      wcu += units.write;
      return result;
    },
    { step: 'initialize', name },
  );
  const usage = (): Usage => ({
    calls: Object.fromEntries(calls),
    totalCalls: [...calls.values()].reduce((sum, n) => sum + n, 0),
    rounds,
    rcu,
    wcu,
  });
  const reset = () => {
    calls.clear();
    rounds = 0;
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
