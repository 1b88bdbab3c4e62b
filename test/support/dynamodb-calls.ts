import { attachMeter, type Usage } from '../../scripts/bench/meter.ts';

// Counts the DynamoDB calls of the in-process local server, by operation (GetItem, Query, ...):
// the same meter the benchmark uses.

export interface CallCounter {
  /** Runs `action` and returns the calls it made, by operation. */
  measure(action: () => Promise<unknown>): Promise<Record<string, number>>;
  /** Runs `action` and returns its calls, sequential round trips and consumed capacity. */
  usage(action: () => Promise<unknown>): Promise<Usage>;
  detach(): void;
}

export function countDynamoDbCalls(): CallCounter {
  const meter = attachMeter();
  return {
    measure: async (action) => (await meter.measure(action)).calls,
    usage: (action) => meter.measure(action),
    detach: () => meter.detach(),
  };
}
