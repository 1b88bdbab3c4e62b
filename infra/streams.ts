// The table's stream consumer and its event source mapping, declared once: the CDK stack
// (infra/stack.ts) deploys it, and the local stack (scripts/local/deployment.ts, the stream poller)
// runs it with the same mapping. Lambda reads the stream as AWS documents for DynamoDB
// (https://docs.aws.amazon.com/lambda/latest/dg/with-ddb.html): one batch per shard at a time, in
// order (or up to the parallelization factor at a time, each item's records still in order).

import { keys, postLists } from '#lib/db/keys.ts';

/** A Lambda event filter pattern (https://docs.aws.amazon.com/lambda/latest/dg/invocation-eventfiltering.html). */
export type EventFilterPattern = Record<string, unknown>;

export interface StreamEventSourceSettings {
  /** The handler module under functions/ (it exports `handler`). */
  handler: string;
  /** Where a new mapping starts reading. */
  startingPosition: 'TRIM_HORIZON' | 'LATEST';
  /** Records per invocation at most. */
  batchSize: number;
  /** A batch whose invocation failed is split in two before it is retried. */
  bisectBatchOnError: boolean;
  /** Retries of a failing batch before Lambda gives up on it (and tells the on-failure destination). */
  retryAttempts: number;
  /** The handler answers `batchItemFailures`: Lambda retries from the first failed record only. */
  reportBatchItemFailures: boolean;
  /** Lambda delivers only the records that match one of these (none: every record). */
  filters: EventFilterPattern[];
  /** Batches of one shard handled at once (records of one item stay in order). */
  parallelizationFactor: number;
  /** Records older than this many seconds are given up without a retry; undefined: never for their age. */
  maximumRecordAgeSeconds?: number;
  /** How long Lambda gathers records for a batch before invoking, in seconds (0: at once). */
  maximumBatchingWindowSeconds: number;
}

/**
 * The deploy settings of the consumer (infra/settings.ts reads them; docs/streams.md, "Settings"):
 * its function's timeout and memory, and its mapping's batches, retries and concurrency.
 */
export interface StreamConsumerSettings {
  /** The function's timeout, in seconds. */
  streamTimeoutSeconds: number;
  /** The function's memory, in MB (CPU grows with it). */
  streamMemorySize: number;
  streamBatchSize: number;
  streamParallelizationFactor: number;
  streamRetryAttempts: number;
  streamBisectBatchOnError: boolean;
  /** Unset: a record is given up only after the retries (or when the stream drops it, after 24 hours). */
  streamMaxRecordAgeSeconds: number | undefined;
  streamBatchingWindowSeconds: number;
}

/**
 * A batch of 100 post texts of up to 100,000 characters each writes thousands of postings, far
 * more than the API functions' 10 s allow: a minute, and the memory of the API's functions. Batches
 * of 100 (Lambda's default for streams: a record's work is bounded, and a failing record is
 * retried alone through the partial batch response), one batch per shard at a time, a few retries,
 * split on error, no age limit and no batching window (a post is indexed as soon as it is read).
 */
export const DEFAULT_STREAM_CONSUMER: StreamConsumerSettings = {
  streamTimeoutSeconds: 60,
  streamMemorySize: 512,
  streamBatchSize: 100,
  streamParallelizationFactor: 1,
  streamRetryAttempts: 5,
  streamBisectBatchOnError: true,
  streamMaxRecordAgeSeconds: undefined,
  streamBatchingWindowSeconds: 0,
};

/**
 * The consumer of the table's stream (functions/streams/table.ts), with the mapping the settings
 * give it. It reacts to posts' text items (the search index), to the removal of a post's `mine`
 * entry (a deletion's visits, votes, favorites, comments and reports) and to the deletion of a
 * reported comment (its reports) only, so Lambda's event filter drops every
 * other record (a post's stats and summary, its other list entries, tokens, profiles, visits)
 * before it costs an invocation: in a burst of creates a batch holds a hundred posts' texts rather
 * than a dozen posts' items. TRIM_HORIZON, so that a new mapping misses nothing still in the stream
 * (24 hours); after the retries the batch's description goes to the on-failure queue (its records
 * stay readable in the stream for the rest of their 24 hours).
 */
export function tableStreamConsumer(settings: StreamConsumerSettings): StreamEventSourceSettings {
  return {
    handler: 'streams/table',
    startingPosition: 'TRIM_HORIZON',
    batchSize: settings.streamBatchSize,
    bisectBatchOnError: settings.streamBisectBatchOnError,
    retryAttempts: settings.streamRetryAttempts,
    reportBatchItemFailures: true,
    filters: [
      { dynamodb: { Keys: { PK: { S: [{ prefix: keys.post('').PK }] }, SK: { S: [keys.post('').SK] } } } },
      { eventName: ['REMOVE'], dynamodb: { Keys: { PK: { S: [{ prefix: keys.postEntry('', '').PK }] }, SK: { S: [postLists.mine] } } } },
      // A reported comment's head removed, or made a placeholder's (lib/reactions/comment-removal.ts).
      { eventName: ['REMOVE'], dynamodb: { Keys: { PK: { S: [{ prefix: keys.commentHead('').PK }] } }, OldImage: { reported: { BOOL: [true] } } } },
      {
        eventName: ['MODIFY'],
        dynamodb: { Keys: { PK: { S: [{ prefix: keys.commentHead('').PK }] } }, NewImage: { status: { S: ['deleted'] }, reported: { BOOL: [true] } } },
      },
    ],
    parallelizationFactor: settings.streamParallelizationFactor,
    ...(settings.streamMaxRecordAgeSeconds === undefined ? {} : { maximumRecordAgeSeconds: settings.streamMaxRecordAgeSeconds }),
    maximumBatchingWindowSeconds: settings.streamBatchingWindowSeconds,
  };
}

/** The consumer with the default settings: the local stack from source runs it so (scripts/local/deployment.ts). */
export const TABLE_STREAM_CONSUMER: StreamEventSourceSettings = tableStreamConsumer(DEFAULT_STREAM_CONSUMER);
