import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import { tableName } from '#lib/config.ts';

// The benchmark's floor: the least a handler can be that makes one GetItem with the same SDK.

const client = DynamoDBDocumentClient.from(new DynamoDBClient({}));

export const handler = async () => {
  const { Item } = await client.send(new GetCommand({ TableName: tableName(), Key: { PK: 'floor', SK: 'floor' } }));
  return { statusCode: 200, body: JSON.stringify(Item ?? null) };
};
