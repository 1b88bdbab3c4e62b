import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';

// A record of the table's DynamoDB stream, as Lambda hands it to the consumer
// (functions/streams/table.ts), read into plain values: what happened to which item, and the item
// before and after. The images arrive in DynamoDB's attribute-value JSON; they may hold anything
// the table holds (password hashes, tokens' hashes), so nothing here ever logs them.

export type ChangeKind = 'INSERT' | 'MODIFY' | 'REMOVE';

export interface TableChange {
  kind: ChangeKind;
  /** The item's primary key (always there, whatever the stream's view type). */
  keys: Record<string, unknown>;
  /** The item before the change (MODIFY, REMOVE), with the table's NEW_AND_OLD_IMAGES view. */
  oldImage?: Record<string, unknown>;
  /** The item after the change (INSERT, MODIFY). */
  newImage?: Record<string, unknown>;
  /** The record's position in its shard: what a partial batch response names. */
  sequenceNumber: string;
}

const KINDS = new Set<string>(['INSERT', 'MODIFY', 'REMOVE']);

/** Lambda's stream images are the SDK's attribute values in JSON (a binary as base64 text). */
const plain = (image: NonNullable<DynamoDBRecord['dynamodb']>['NewImage']) => (image ? unmarshall(image as Record<string, AttributeValue>) : undefined);

/** The change a stream record describes; throws on a record that is not one (then it is retried). */
export function tableChange(record: DynamoDBRecord): TableChange {
  const stream = record.dynamodb;
  if (!record.eventName || !KINDS.has(record.eventName) || !stream?.Keys || !stream.SequenceNumber) {
    throw new Error(`Not a DynamoDB stream record: ${record.eventName ?? 'no eventName'} ${stream?.SequenceNumber ?? 'no SequenceNumber'}`);
  }
  const oldImage = plain(stream.OldImage);
  const newImage = plain(stream.NewImage);
  return {
    kind: record.eventName,
    keys: unmarshall(stream.Keys as Record<string, AttributeValue>),
    ...(oldImage ? { oldImage } : {}),
    ...(newImage ? { newImage } : {}),
    sequenceNumber: stream.SequenceNumber,
  };
}

/**
 * How far the consumer is behind the table, in milliseconds: now minus the creation time of the
 * newest record of the batch (DynamoDB gives it in whole seconds, rounded down, so the figure can
 * be up to a second high). Undefined for a batch without times.
 */
export function batchLagMs(records: readonly DynamoDBRecord[], now = Date.now()): number | undefined {
  const times = records.map((record) => record.dynamodb?.ApproximateCreationDateTime).filter((time): time is number => typeof time === 'number');
  if (times.length === 0) return undefined;
  return Math.max(0, now - Math.max(...times) * 1000);
}
