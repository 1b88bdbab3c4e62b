import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { tableName } from '#lib/config.ts';
import { db } from '#lib/db/client.ts';
import { keys } from '#lib/db/keys.ts';
import { transactWrite } from '#lib/db/transact.ts';
import { profileReactivationWrites } from '#lib/profiles/profile.ts';
import { credentialsReactivationWrite, requireCredentials } from './account.ts';

/** Reactivates a deactivated account: it is listed again and may log in (its old tokens stay revoked). */
export async function reactivateUser(username: string): Promise<void> {
  await requireCredentials(username);
  const { Item: profile } = await db().send(new GetCommand({ TableName: tableName(), Key: keys.userProfile(username), ConsistentRead: true }));
  if (!profile) throw new Error(`The profile of "${username}" is missing.`);
  await transactWrite([credentialsReactivationWrite(username), ...profileReactivationWrites(profile)]);
}
