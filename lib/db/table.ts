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
  purpose: string;
}

export const INDEXES = {
  /** Overloaded: users, tags and published posts newest first; a user's tokens. */
  lists: { name: 'GSI1', partitionKey: 'GSI1PK', sortKey: 'GSI1SK', purpose: 'users, tags, posts by created, tokens of a user' },
  featured: { name: 'Featured', partitionKey: 'FeaturedPK', sortKey: 'GSI1SK', purpose: 'published featured posts by created' },
  views: { name: 'Views', partitionKey: 'GSI1PK', sortKey: 'ViewsSK', purpose: 'published posts by total_visitors' },
  votes: { name: 'Votes', partitionKey: 'GSI1PK', sortKey: 'VotesSK', purpose: 'published posts by rating_likes' },
  active: { name: 'Active', partitionKey: 'GSI1PK', sortKey: 'ActiveSK', purpose: 'published posts by modified' },
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
      Projection: { ProjectionType: 'ALL' },
    })),
  };
}
