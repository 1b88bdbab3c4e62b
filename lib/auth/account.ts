import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { tableName } from '#lib/config.ts';
import type { Item } from '#lib/db/batch.ts';
import { db } from '#lib/db/client.ts';
import { keys } from '#lib/db/keys.ts';
import { tx, type TxWrite } from '#lib/db/transact.ts';
import { USERNAME_MAX_LENGTH } from '#lib/profiles/profile.ts';

// The account entity: the credentials item (password hash and whether the account may log in)
// that sits beside the user's profile. Accounts are created and managed by the administrator CLI
// and used by login.

/** A refused administrative action, with a message for the operator. */
export class AccountError extends Error {
  override name = 'AccountError';
}

const USERNAME_PATTERN = /^[\p{L}\p{N}_.@+-]+$/u;

export function checkUsername(username: string): void {
  if (!USERNAME_PATTERN.test(username) || username.length > USERNAME_MAX_LENGTH) {
    throw new AccountError(`Invalid username "${username}": use up to ${USERNAME_MAX_LENGTH} letters, digits and @/./+/-/_ characters.`);
  }
}

/** The credentials item of a user (strongly consistent), if the username could exist and does. */
export async function getCredentials(username: string): Promise<Item | undefined> {
  if (!username || username.length > USERNAME_MAX_LENGTH) return undefined;
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: keys.userCredentials(username), ConsistentRead: true }));
  return Item;
}

/** The credentials item, or the operator's error for an unknown user. */
export async function requireCredentials(username: string): Promise<Item> {
  const credentials = await getCredentials(username);
  if (!credentials) throw new AccountError(`There is no user "${username}".`);
  return credentials;
}

/** The password hash a login may be checked against: none for an inactive account or one without a password. */
export function usablePasswordHash(credentials: Item | undefined): string | null {
  return credentials?.is_active === true && typeof credentials.password === 'string' ? credentials.password : null;
}

/** The credentials of a new account; a null hash is an account that cannot log in yet. */
export function newCredentialsItem(user: { id: number; username: string }, passwordHash: string | null): Item {
  return { ...keys.userCredentials(user.username), id: user.id, username: user.username, is_active: true, password: passwordHash };
}

/** Replaces the password hash. */
export function passwordWrite(username: string, passwordHash: string): TxWrite {
  return {
    write: tx.update(
      keys.userCredentials(username),
      { expression: 'SET password = :hash', values: { ':hash': passwordHash } },
      { expression: 'attribute_exists(PK)' },
    ),
  };
}

/** Refuses every later login. */
export function credentialsDeactivationWrite(username: string): TxWrite {
  return { write: tx.update(keys.userCredentials(username), { expression: 'SET is_active = :false', values: { ':false': false } }) };
}

/** Allows logins again (with the password the account had). */
export function credentialsReactivationWrite(username: string): TxWrite {
  return {
    write: tx.update(
      keys.userCredentials(username),
      { expression: 'SET is_active = :true', values: { ':true': true } },
      { expression: 'attribute_exists(PK)' },
    ),
  };
}

/** Checks, inside a login's transaction, that the password and the account state are still the ones checked. */
export function credentialsUnchangedCheck(username: string, passwordHash: string | null, onChanged: () => Error): TxWrite {
  return {
    write: tx.check(keys.userCredentials(username), {
      expression: 'password = :hash AND is_active = :true',
      values: { ':hash': passwordHash, ':true': true },
    }),
    onConditionFailed: onChanged,
  };
}
