// The table's stream consumer and its event source mapping, declared once: the CDK stack
// (infra/stack.ts) deploys it, and the local stack (scripts/local/deployment.ts, the stream poller)
// runs it with the same settings. Lambda reads the stream as AWS documents for DynamoDB
// (https://docs.aws.amazon.com/lambda/latest/dg/with-ddb.html): one batch per shard at a time,
// in order.

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
}

/**
 * The consumer of the table's stream (functions/streams/table.ts). It reacts to posts' text items
 * (the search index) and to the removal of a post's `mine` entry (a deletion's visits, votes and
 * favorites) only, so Lambda's event filter drops every other record (a post's stats and summary,
 * its other list entries, tokens, profiles, visits) before it costs an invocation: in a burst of
 * creates a batch holds a hundred posts' texts rather than a dozen posts' items. Batches of 100
 * (Lambda's default for streams: a record's work is bounded, a page of deletions or one post's
 * words, and a failing record is retried alone through the partial batch response); TRIM_HORIZON,
 * so that a new mapping misses nothing still in the stream (24 hours); a few retries, then the
 * batch's description goes to the on-failure queue (its records stay readable in the stream for
 * the rest of their 24 hours).
 */
export const TABLE_STREAM_CONSUMER: StreamEventSourceSettings = {
  handler: 'streams/table',
  startingPosition: 'TRIM_HORIZON',
  batchSize: 100,
  bisectBatchOnError: true,
  retryAttempts: 5,
  reportBatchItemFailures: true,
  filters: [
    { dynamodb: { Keys: { PK: { S: [{ prefix: keys.post('').PK }] }, SK: { S: [keys.post('').SK] } } } },
    { eventName: ['REMOVE'], dynamodb: { Keys: { PK: { S: [{ prefix: keys.postEntry('', '').PK }] }, SK: { S: [postLists.mine] } } } },
  ],
};
