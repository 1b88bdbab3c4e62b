import { incrementCounter } from '#lib/db/increment.ts';
import { keys } from '#lib/db/keys.ts';
import { transactWrite, tx, type TxWrite } from '#lib/db/transact.ts';
import { isoTimestamp } from '#lib/time.ts';
import { activeUsersWrites, newProfileItem } from '#lib/profiles/profile.ts';
import { AccountError, checkUsername, getCredentials, newCredentialsItem } from './account.ts';
import { hashPassword } from './passwords.ts';

export interface NewUser {
  id: number;
  username: string;
}

/** The next user id, from a counter item (ids are never reused). */
export function nextUserId(): Promise<number> {
  return incrementCounter(keys.userIdCounter(), { attribute: 'value' });
}

/**
 * The writes that create an account (and count it active): its profile, its credentials and the claim of its username
 * in lower case, each only if absent: `bob` is taken once `Bob` exists, for a sign-up and for the
 * administrator alike.
 */
export function newAccountWrites(user: NewUser, passwordHash: string | null, joined: string, options: { lastLogin?: string; onTaken: () => Error }): TxWrite[] {
  const absent = { expression: 'attribute_not_exists(PK)' };
  const profile = { ...newProfileItem(user, joined), ...(options.lastLogin ? { last_login: options.lastLogin } : {}) };
  const claim = { ...keys.usernameClaim(user.username), username: user.username };
  return [
    { write: tx.put(profile, absent), onConditionFailed: options.onTaken },
    { write: tx.put(newCredentialsItem(user, passwordHash), absent), onConditionFailed: options.onTaken },
    { write: tx.put(claim, absent), onConditionFailed: options.onTaken },
    ...activeUsersWrites(user.username, 1),
  ];
}

/** Creates an account: its profile and credentials. Without a password it is a third-party login account that cannot log in yet. */
export async function createUser(username: string, password: string | null): Promise<NewUser> {
  checkUsername(username);
  const taken = () => new AccountError(`The username "${username}" is already taken.`);
  if (await getCredentials(username)) throw taken();
  const hash = password === null ? null : await hashPassword(password);
  const user = { id: await nextUserId(), username };
  await transactWrite(newAccountWrites(user, hash, isoTimestamp(), { onTaken: taken }));
  return user;
}
