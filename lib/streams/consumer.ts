import { MetricUnit } from '@aws-lambda-powertools/metrics';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { logMetrics } from '@aws-lambda-powertools/metrics/middleware';
import middy from '@middy/core';
import type { Context, DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { lambdaFunctionName } from '#lib/config.ts';
import { emptyUsage, withDynamoUsage } from '#lib/db/usage.ts';
import { describeError, log, refreshLogLevel } from '#lib/log.ts';
import { metrics } from '#lib/metrics.ts';
import { withBudget } from '#lib/retry.ts';
import { tracing } from '#lib/tracing.ts';
import { batchLagMs, tableChange, type TableChange } from './records.ts';

// The table's stream consumer: a dispatcher of the stream's records to the reactions that want
// them (functions/streams/table.ts lists them). The records of one item are handled in the order
// of their shard, different items at once; the earliest record that fails is named in the partial
// batch response, so that Lambda delivers it again with everything after it (and not what came
// before it). A record can therefore be delivered more than once: every reaction must be idempotent.

/** One thing the service does in answer to a change of the table. */
export interface Reaction<Subject> {
  /** Its name in the logs. */
  name: string;
  /** What the change asks of the reaction, or undefined when it asks nothing (no I/O here). */
  select(change: TableChange): Subject | undefined;
  /** Does it. Must be idempotent; an error fails the record, which Lambda then retries. */
  apply(subject: Subject): Promise<void>;
}

/** Any reaction, whatever its subject: what the dispatcher holds. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each reaction's select feeds its own apply
export type AnyReaction = Reaction<any>;

export interface BatchOutcome {
  response: DynamoDBBatchResponse;
  /** Records handled before the first failure (or all of them). */
  processed: number;
  /** Reactions applied, by name. */
  reactions: Record<string, number>;
}

/** Items whose records are handled at once: records of one item stay in their order. */
export const ITEMS_IN_FLIGHT = 12;

/** The item a record is about (its keys): the stream orders the records of one item only. */
const itemOf = (record: DynamoDBRecord) => JSON.stringify(record.dynamodb?.Keys ?? record.eventID ?? '');

/**
 * Handles a batch: the records of one item in their order, the items ITEMS_IN_FLIGHT at a time
 * (the stream promises no order between items, so neither does the consumer: a burst of creates
 * is indexed in parallel). An item's first failed record stops that item; the earliest failed
 * record of the batch is the one batch item failure (Lambda's checkpoint for a stream: it resumes
 * from there, and records after it that were handled are handled again, which every reaction
 * allows). Each record is read once.
 */
export async function processRecords(records: readonly DynamoDBRecord[], reactions: readonly AnyReaction[]): Promise<BatchOutcome> {
  const applied: Record<string, number> = {};
  const byItem = new Map<string, number[]>();
  records.forEach((record, index) => {
    const item = itemOf(record);
    byItem.set(item, [...(byItem.get(item) ?? []), index]);
  });
  let firstFailure: number | undefined;
  // Each record read once: a record that cannot be read fails when it is handled.
  const changes = records.map((record) => {
    try {
      return tableChange(record);
    } catch (error) {
      return error instanceof Error ? error : new Error(String(error));
    }
  });

  const handle = async (index: number): Promise<boolean> => {
    const record = records[index]!;
    let current = 'read';
    try {
      // Each record gets its own retry budget (lib/retry.ts) for the DynamoDB calls of its reactions.
      await withBudget(async () => {
        const change = changes[index]!;
        if (change instanceof Error) throw change;
        for (const reaction of reactions) {
          current = reaction.name;
          const subject = reaction.select(change);
          if (subject === undefined) continue;
          await reaction.apply(subject);
          applied[reaction.name] = (applied[reaction.name] ?? 0) + 1;
        }
      });
      return true;
    } catch (error) {
      // The keys and images are never logged: they may hold secrets.
      log.error('stream record failed', {
        sequenceNumber: record.dynamodb?.SequenceNumber ?? '',
        eventName: record.eventName,
        reaction: current,
        ...describeError(error),
      });
      firstFailure = Math.min(firstFailure ?? index, index);
      return false;
    }
  };

  const queue = [...byItem.values()];
  const worker = async () => {
    for (let indexes = queue.shift(); indexes; indexes = queue.shift()) {
      for (const index of indexes) if (!(await handle(index))) break;
    }
  };
  await Promise.all(Array.from({ length: Math.min(ITEMS_IN_FLIGHT, queue.length) }, worker));

  if (firstFailure === undefined) return { response: { batchItemFailures: [] }, processed: records.length, reactions: applied };
  const sequenceNumber = records[firstFailure]!.dynamodb?.SequenceNumber ?? '';
  return { response: { batchItemFailures: [{ itemIdentifier: sequenceNumber }] }, processed: firstFailure, reactions: applied };
}

/** What one stream batch cost in DynamoDB, as its `stream batch` log line states it. */
export interface StreamBatchUsage {
  records: number;
  reactions: Record<string, number>;
  dynamodbCalls: number;
  readUnits: number;
  writeUnits: number;
}

let batchListener: ((usage: StreamBatchUsage) => void) | undefined;

/** Tells `listen` the usage of every stream batch handled in this process (the local tools' figures); undefined stops. */
export function onStreamBatch(listen: ((usage: StreamBatchUsage) => void) | undefined): void {
  batchListener = listen;
}

/**
 * The Lambda handler for the table's stream: the Logger's Lambda context on every line, the
 * Tracer when tracing is on, and in Lambda the metrics (Powertools Metrics, as the API functions
 * publish theirs). Each batch writes one `stream batch` line with its lag (`lagMs`: now minus the
 * newest record's creation time), what was done and what it cost in DynamoDB; in Lambda the lag
 * is also the metric `StreamLag` and a failed record the metric `StreamRecordFailures`.
 */
export function streamConsumer(reactions: readonly AnyReaction[]): (event: DynamoDBStreamEvent, context: Context) => Promise<DynamoDBBatchResponse> {
  const inLambda = lambdaFunctionName() !== undefined;
  const handler = middy<DynamoDBStreamEvent, DynamoDBBatchResponse>()
    .use(injectLambdaContext(log, { logEvent: false }))
    .use(tracing ? [tracing.middleware] : [])
    .use(inLambda ? [logMetrics(metrics, { captureColdStartMetric: true })] : [])
    .handler(async (event) => {
      refreshLogLevel();
      const records = event.Records ?? [];
      const lagMs = batchLagMs(records);
      const usage = { ...emptyUsage(), stream: true as const };
      const outcome = await withDynamoUsage(usage, () => processRecords(records, reactions));
      const failed = outcome.response.batchItemFailures.length > 0;
      log.info('stream batch', {
        records: records.length,
        processed: outcome.processed,
        failed,
        ...(lagMs === undefined ? {} : { lagMs }),
        reactions: outcome.reactions,
        dynamodbCalls: usage.calls,
        consumedCapacity: { read: Number(usage.readUnits.toFixed(2)), write: Number(usage.writeUnits.toFixed(2)) },
      });
      batchListener?.({
        records: records.length,
        reactions: outcome.reactions,
        dynamodbCalls: usage.calls,
        readUnits: usage.readUnits,
        writeUnits: usage.writeUnits,
      });
      if (inLambda) {
        if (lagMs !== undefined) metrics.addMetric('StreamLag', MetricUnit.Milliseconds, lagMs);
        if (failed) metrics.addMetric('StreamRecordFailures', MetricUnit.Count, 1);
      }
      return outcome.response;
    });
  return (event, context) => handler(event, context);
}
