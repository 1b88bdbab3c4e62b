import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { tableName } from '#lib/config.ts';
import { db } from '#lib/db/client.ts';
import { keys } from '#lib/db/keys.ts';

/**
 * Whether any account was ever created in the table (sign-up, the admin CLI or the seed): the user
 * id counter exists from the first one on. One read, for `npm start`'s first-steps hint.
 */
export async function anyUserCreated(): Promise<boolean> {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: keys.userIdCounter(), ProjectionExpression: 'PK' }));
  return Item !== undefined;
}
