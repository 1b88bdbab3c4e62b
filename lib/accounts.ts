import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db } from './db/client.ts';
import { keys, listPartitions, listSortKeys, type Key } from './db/keys.ts';
import { INDEXES } from './db/table.ts';
import { transactWrite, tx, type TxWrite } from './db/transact.ts';
import { batchDelete } from './db/batch.ts';
import { tableName } from './config.ts';
import { ValidationError } from './errors.ts';
import { hashPassword, verifyPassword } from './passwords.ts';
import { isoTimestamp } from './time.ts';
import { newToken, tokenItem, tokenKeysOf } from './tokens.ts';
import { PROFILE_FIELDS, USERNAME_MAX_LENGTH } from './users.ts';

// Accounts: created and managed by the administrator CLI, used by login.

/** A refused administrative action, with a message for the operator. */
export class AccountError extends Error {
  override name = 'AccountError';
}

const USERNAME_PATTERN = /^[\p{L}\p{N}_.@+-]+$/u;

export function checkUsername(username: string): void {
  if (!USERNAME_PATTERN.test(username) || username.length > USERNAME_MAX_LENGTH) {
    throw new AccountError(
      `Invalid username "${username}": use up to ${USERNAME_MAX_LENGTH} letters, digits and @/./+/-/_ characters.`,
    );
  }
}

async function getCredentials(username: string) {
  if (!username || username.length > USERNAME_MAX_LENGTH) return undefined;
  const { Item } = await db().send(
    new GetCommand({ TableName: tableName(), Key: keys.userCredentials(username), ConsistentRead: true }),
  );
  return Item;
}

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

export interface NewUser {
  id: number;
  username: string;
}

/** Creates an account; without a password it is a third-party login account that cannot log in yet. */
export async function createUser(username: string, password: string | null): Promise<NewUser> {
  checkUsername(username);
  if (await getCredentials(username)) throw new AccountError(`The username "${username}" is already taken.`);
  const hash = password === null ? null : await hashPassword(password);
  const id = await nextUserId();
  const joined = isoTimestamp();
  const taken = () => new AccountError(`The username "${username}" is already taken.`);
  const absent = { expression: 'attribute_not_exists(PK)' };
  await transactWrite([
    {
      write: tx.put(
        {
          ...keys.userProfile(username),
          [INDEXES.lists.partitionKey]: listPartitions.users,
          [INDEXES.lists.sortKey]: listSortKeys.user(joined, id),
          id,
          username,
          is_active: true,
          date_joined: joined,
          last_login: null,
          total_posts: 0,
          total_favorites: 0,
          total_featured_posts: 0,
          ...Object.fromEntries(PROFILE_FIELDS.map((field) => [field, null])),
        },
        absent,
      ),
      onConditionFailed: taken,
    },
    {
      write: tx.put({ ...keys.userCredentials(username), id, username, is_active: true, password: hash }, absent),
      onConditionFailed: taken,
    },
  ]);
  return { id, username };
}

async function requireCredentials(username: string) {
  const credentials = await getCredentials(username);
  if (!credentials) throw new AccountError(`There is no user "${username}".`);
  return credentials;
}

// The index that lists a user's tokens is eventually consistent: a token issued just before the
// account changed may show up in it a moment later. After the change commits no new token can be
// issued (login checks the credentials in its transaction), so sweeping until a pass finds
// nothing, a second apart, catches the stragglers.
const SWEEP_INTERVAL_MS = 1000;
const MAX_SWEEPS = 5;

/**
 * Commits `change` (writes to the user's items) together with the deletion of the user's tokens,
 * then sweeps for tokens the index had not shown yet.
 */
async function changeRevokingTokens(username: string, change: TxWrite[]): Promise<void> {
  const tokens: Key[] = await tokenKeysOf(username);
  const inTransaction = tokens.slice(0, 100 - change.length);
  await transactWrite([...change, ...inTransaction.map((key) => ({ write: tx.delete(key) }))]);
  let remaining = tokens.slice(inTransaction.length);
  for (let sweep = 0; sweep < MAX_SWEEPS; sweep++) {
    await batchDelete(remaining);
    await new Promise((done) => setTimeout(done, SWEEP_INTERVAL_MS));
    remaining = await tokenKeysOf(username);
    if (remaining.length === 0) return;
  }
  await batchDelete(remaining);
}

/** Sets a new password; the user's existing tokens stop working. */
export async function setPassword(username: string, password: string): Promise<void> {
  await requireCredentials(username);
  const hash = await hashPassword(password);
  await changeRevokingTokens(username, [
    { write: tx.update(keys.userCredentials(username), { expression: 'SET password = :hash', values: { ':hash': hash } }, { expression: 'attribute_exists(PK)' }) },
  ]);
}

/** Deactivates an account: it leaves the users list, cannot log in, and its tokens stop working. */
export async function deactivateUser(username: string): Promise<void> {
  await requireCredentials(username);
  const inactive = { expression: 'SET is_active = :false', values: { ':false': false } };
  await changeRevokingTokens(username, [
    { write: tx.update(keys.userCredentials(username), inactive) },
    {
      write: tx.update(keys.userProfile(username), {
        ...inactive,
        expression: `${inactive.expression} REMOVE ${INDEXES.lists.partitionKey}, ${INDEXES.lists.sortKey}`,
      }),
    },
  ]);
}

const invalidCredentials = () =>
  new ValidationError({ non_field_errors: ['Unable to log in with provided credentials.'] });

/**
 * Checks a username and password and issues a new token. Every refusal (unknown user, wrong
 * password, inactive account, no usable password) does the same bcrypt work and gives the same answer.
 */
export async function login(username: string, password: string): Promise<string> {
  const credentials = await getCredentials(username);
  const usable = credentials?.is_active === true && typeof credentials.password === 'string' ? credentials.password : null;
  if (!(await verifyPassword(password, usable)) || !credentials) throw invalidCredentials();
  const token = newToken();
  const id = Number(credentials.id);
  await transactWrite([
    { write: tx.put(tokenItem(token, { id, username })) },
    {
      write: tx.update(keys.userProfile(username), { expression: 'SET last_login = :now', values: { ':now': isoTimestamp() } }, { expression: 'attribute_exists(PK)' }),
      onConditionFailed: invalidCredentials,
    },
    {
      // The password and the account state must still be the ones just checked.
      write: tx.check(keys.userCredentials(username), {
        expression: 'password = :hash AND is_active = :true',
        values: { ':hash': usable, ':true': true },
      }),
      onConditionFailed: invalidCredentials,
    },
  ]);
  return token;
}
