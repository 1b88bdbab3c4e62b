import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { tableName } from '#lib/config.ts';
import { db } from '#lib/db/client.ts';
import { keys } from '#lib/db/keys.ts';
import { transactWrite, tx } from '#lib/db/transact.ts';
import { isoTimestamp } from '#lib/time.ts';
import { newProfileItem } from '#lib/users/profile.ts';
import { AccountError, checkUsername, getCredentials, newCredentialsItem } from './account.ts';
import { hashPassword } from './passwords.ts';

export interface NewUser {
  id: number;
  username: string;
}

/** The next user id, from a counter item (ids are never reused). */
async function nextUserId(): Promise<number> {
  const { Attributes } = await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.userIdCounter(),
      UpdateExpression: 'ADD #value :one',
      ExpressionAttributeNames: { '#value': 'value' },
      ExpressionAttributeValues: { ':one': 1 },
      ReturnValues: 'UPDATED_NEW',
    }),
  );
  return Number(Attributes!.value);
}

/** Creates an account: its profile and credentials. Without a password it is a third-party login account that cannot log in yet. */
export async function createUser(username: string, password: string | null): Promise<NewUser> {
  checkUsername(username);
  const taken = () => new AccountError(`The username "${username}" is already taken.`);
  if (await getCredentials(username)) throw taken();
  const hash = password === null ? null : await hashPassword(password);
  const user = { id: await nextUserId(), username };
  const absent = { expression: 'attribute_not_exists(PK)' };
  await transactWrite([
    { write: tx.put(newProfileItem(user, isoTimestamp()), absent), onConditionFailed: taken },
    { write: tx.put(newCredentialsItem(user, hash), absent), onConditionFailed: taken },
  ]);
  return user;
}
