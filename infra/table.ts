import { RemovalPolicy } from 'aws-cdk-lib';
import {
  AttributeType,
  BillingMode,
  ProjectionType,
  StreamViewType,
  Table,
  TableEncryption,
  type Attribute,
  type GlobalSecondaryIndexProps,
} from 'aws-cdk-lib/aws-dynamodb';
import type { KeySchemaElement } from '@aws-sdk/client-dynamodb';
import type { Construct } from 'constructs';
import { createSearchTableInput, createTableInput, PARTITION_KEY, SORT_KEY, TTL_ATTRIBUTE } from '#lib/db/table.ts';

// The deployed table is built from the same CreateTable input the local stack sends to
// DynamoDB Local (lib/db/table.ts), so key schema and indexes cannot drift apart.

const ATTRIBUTE_TYPES: Record<string, AttributeType> = {
  S: AttributeType.STRING,
  N: AttributeType.NUMBER,
  B: AttributeType.BINARY,
};

export interface TableSchema {
  partitionKey: Attribute;
  sortKey?: Attribute;
  indexes: GlobalSecondaryIndexProps[];
  /** The stream's view type, when the table has a stream. */
  stream?: StreamViewType;
}

const STREAM_VIEW_TYPES: Record<string, StreamViewType> = {
  NEW_AND_OLD_IMAGES: StreamViewType.NEW_AND_OLD_IMAGES,
  NEW_IMAGE: StreamViewType.NEW_IMAGE,
  OLD_IMAGE: StreamViewType.OLD_IMAGE,
  KEYS_ONLY: StreamViewType.KEYS_ONLY,
};

/** Key schema, global secondary indexes and stream of lib/db/table.ts, in CDK's terms. */
export function tableSchema(): TableSchema {
  const input = createTableInput('schema');
  const types = new Map((input.AttributeDefinitions ?? []).map((a) => [a.AttributeName!, a.AttributeType!]));
  const attribute = (name: string): Attribute => {
    const type = ATTRIBUTE_TYPES[types.get(name) ?? ''];
    if (!type) throw new Error(`lib/db/table.ts: attribute "${name}" has no definition.`);
    return { name, type };
  };
  const keys = (schema: KeySchemaElement[] | undefined) => {
    const hash = schema?.find((k) => k.KeyType === 'HASH')?.AttributeName;
    const range = schema?.find((k) => k.KeyType === 'RANGE')?.AttributeName;
    if (!hash) throw new Error('lib/db/table.ts: a key schema has no partition key.');
    return { partitionKey: attribute(hash), ...(range ? { sortKey: attribute(range) } : {}) };
  };
  if (input.BillingMode !== 'PAY_PER_REQUEST') throw new Error('lib/db/table.ts: the stack provisions an on-demand table.');
  let stream: StreamViewType | undefined;
  if (input.StreamSpecification?.StreamEnabled) {
    stream = STREAM_VIEW_TYPES[input.StreamSpecification.StreamViewType ?? ''];
    if (!stream) throw new Error(`lib/db/table.ts: the stream has no view type CDK knows (${input.StreamSpecification.StreamViewType}).`);
  }
  return {
    ...keys(input.KeySchema),
    ...(stream ? { stream } : {}),
    indexes: (input.GlobalSecondaryIndexes ?? []).map((index) => {
      const projection = index.Projection;
      if (projection?.ProjectionType === 'ALL') return { indexName: index.IndexName!, ...keys(index.KeySchema), projectionType: ProjectionType.ALL };
      if (projection?.ProjectionType !== 'INCLUDE') throw new Error(`lib/db/table.ts: index ${index.IndexName} must project ALL or INCLUDE.`);
      return {
        indexName: index.IndexName!,
        ...keys(index.KeySchema),
        projectionType: ProjectionType.INCLUDE,
        nonKeyAttributes: projection.NonKeyAttributes ?? [],
      };
    }),
  };
}

/**
 * The single table: on demand, point-in-time recovery, deletion protection, retained when the
 * stack is deleted, expiring items removed by TTL, encrypted with the AWS managed key, and the
 * stream of lib/db/table.ts (read by functions/streams/table.ts).
 */
export function createPostsTable(scope: Construct, id: string): Table {
  const schema = tableSchema();
  const table = new Table(scope, id, {
    partitionKey: schema.partitionKey,
    ...(schema.sortKey ? { sortKey: schema.sortKey } : {}),
    billingMode: BillingMode.PAY_PER_REQUEST,
    pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
    deletionProtection: true,
    removalPolicy: RemovalPolicy.RETAIN,
    timeToLiveAttribute: TTL_ATTRIBUTE,
    encryption: TableEncryption.AWS_MANAGED,
    ...(schema.stream ? { stream: schema.stream } : {}),
  });
  for (const index of schema.indexes) table.addGlobalSecondaryIndex(index);
  return table;
}

/**
 * The search index's table (lib/db/table.ts createSearchTableInput): no index and no stream, and
 * otherwise kept as the main table is (on demand, point-in-time recovery, deletion protection,
 * retained, encrypted): the postings are only rewritten when a post's text changes, so a lost
 * index would leave older posts unfound.
 */
export function createSearchTable(scope: Construct, id: string): Table {
  const input = createSearchTableInput('schema');
  const key = (type: 'HASH' | 'RANGE') => input.KeySchema?.find((element) => element.KeyType === type)?.AttributeName;
  if (key('HASH') !== PARTITION_KEY || key('RANGE') !== SORT_KEY || input.GlobalSecondaryIndexes || input.StreamSpecification) {
    throw new Error('lib/db/table.ts: the search table is keyed PK, SK, with no index and no stream.');
  }
  return new Table(scope, id, {
    partitionKey: { name: PARTITION_KEY, type: AttributeType.STRING },
    sortKey: { name: SORT_KEY, type: AttributeType.STRING },
    billingMode: BillingMode.PAY_PER_REQUEST,
    pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
    deletionProtection: true,
    removalPolicy: RemovalPolicy.RETAIN,
    encryption: TableEncryption.AWS_MANAGED,
  });
}
