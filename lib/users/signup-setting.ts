import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { signupClosedByDeployment, tableName } from '#lib/config.ts';
import type { Item } from '#lib/db/batch.ts';
import { db } from '#lib/db/client.ts';
import { keys, type Key } from '#lib/db/keys.ts';

// Whether sign-up is open: closed when the deployment says so (SIGNUP=closed) or when an
// administrator closed it at run time (this item, written by the admin CLI).

export function signupSettingKey(): Key {
  return keys.signupSetting();
}

/** Whether sign-up is closed, given the setting item as read (absent: open unless the deployment closed it). */
export function signupClosed(setting: Item | undefined): boolean {
  return signupClosedByDeployment() || setting?.closed === true;
}

/** Closes or reopens sign-up at run time (the admin CLI). */
export async function setSignupClosed(closed: boolean): Promise<void> {
  await db().send(new PutCommand({ TableName: tableName(), Item: { ...signupSettingKey(), closed } }));
}
