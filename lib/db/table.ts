import type { CreateTableCommandInput } from '@aws-sdk/client-dynamodb';

// The single table, declared once: the local bootstrap creates it from here and the CDK stack
// provisions the same key schema and indexes.

export const PARTITION_KEY = 'PK';
export const SORT_KEY = 'SK';
/** Epoch seconds after which DynamoDB's TTL may delete the item (tokens). */
export const TTL_ATTRIBUTE = 'expires_at';

export interface IndexDefinition {
  name: string;
  partitionKey: string;
  sortKey: string;
  /** The attributes besides the keys that the index holds: all, or just these. */
  projection: 'ALL' | readonly string[];
  purpose: string;
}

/**
 * What a post's list entry projects: enough to find the post (its slug, read with its counters in
 * a second call) and to filter a list (featured, published). Counters are left out, so a change of
 * one rewrites only the index whose sort key it moves.
 */
export const POST_ENTRY_PROJECTION = ['slug', 'post_id', 'is_featured', 'publish'] as const;

export const INDEXES = {
  /** Overloaded: users and tags newest first; a user's tokens. Small items, read whole. */
  lists: { name: 'GSI1', partitionKey: 'GSI1PK', sortKey: 'GSI1SK', projection: 'ALL', purpose: 'users, tags, tokens of a user' },
  postsByCreated: {
    name: 'PostsByCreated',
    partitionKey: 'ListPK',
    sortKey: 'CreatedSK',
    projection: POST_ENTRY_PROJECTION,
    purpose: 'post lists by created (newest, featured)',
  },
  postsByViews: {
    name: 'PostsByViews',
    partitionKey: 'ListPK',
    sortKey: 'ViewsSK',
    projection: POST_ENTRY_PROJECTION,
    purpose: 'post lists by total_visitors',
  },
  postsByVotes: { name: 'PostsByVotes', partitionKey: 'ListPK', sortKey: 'VotesSK', projection: POST_ENTRY_PROJECTION, purpose: 'post lists by rating_likes' },
  postsByActive: { name: 'PostsByActive', partitionKey: 'ListPK', sortKey: 'ActiveSK', projection: POST_ENTRY_PROJECTION, purpose: 'post lists by modified' },
} as const satisfies Record<string, IndexDefinition>;

export type IndexName = keyof typeof INDEXES;

export function createTableInput(tableName: string): CreateTableCommandInput {
  const indexes = Object.values(INDEXES);
  const attributes = new Set<string>([PARTITION_KEY, SORT_KEY]);
  for (const index of indexes) {
    attributes.add(index.partitionKey);
    attributes.add(index.sortKey);
  }
  return {
    TableName: tableName,
    BillingMode: 'PAY_PER_REQUEST',
    AttributeDefinitions: [...attributes].map((name) => ({ AttributeName: name, AttributeType: 'S' })),
    KeySchema: [
      { AttributeName: PARTITION_KEY, KeyType: 'HASH' },
      { AttributeName: SORT_KEY, KeyType: 'RANGE' },
    ],
    GlobalSecondaryIndexes: indexes.map((index) => ({
      IndexName: index.name,
      KeySchema: [
        { AttributeName: index.partitionKey, KeyType: 'HASH' },
        { AttributeName: index.sortKey, KeyType: 'RANGE' },
      ],
      Projection: index.projection === 'ALL' ? { ProjectionType: 'ALL' } : { ProjectionType: 'INCLUDE', NonKeyAttributes: [...index.projection] },
    })),
    // The stream feeds the asynchronous fan-out (functions/streams/table.ts): both images, so a
    // removed item still says what it was.
    StreamSpecification: { StreamEnabled: true, StreamViewType: 'NEW_AND_OLD_IMAGES' },
  };
}

/**
 * The search index's table: the postings alone (lib/search/postings.ts), keyed as in the main table,
 * with no index and no stream. They are most of what the service writes (a new post of 1.5 KB puts
 * some 220), and none of it is anything the stream's consumer reacts to, the lists read, or a backup
 * must read: out of the main table they cost its stream and its indexes nothing (and DynamoDB Local,
 * which slows down with every stream record it keeps, writes them three times as fast).
 */
export function createSearchTableInput(tableName: string): CreateTableCommandInput {
  return {
    TableName: tableName,
    BillingMode: 'PAY_PER_REQUEST',
    AttributeDefinitions: [PARTITION_KEY, SORT_KEY].map((name) => ({ AttributeName: name, AttributeType: 'S' })),
    KeySchema: [
      { AttributeName: PARTITION_KEY, KeyType: 'HASH' },
      { AttributeName: SORT_KEY, KeyType: 'RANGE' },
    ],
  };
}
