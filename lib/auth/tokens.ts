import { createHash, randomBytes } from 'node:crypto';
import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { tableName, tokenTtlDays } from '#lib/config.ts';
import { db } from '#lib/db/client.ts';
import { keyOf, keys, listPartitions, listSortKeys, type Key } from '#lib/db/keys.ts';
import { INDEXES, TTL_ATTRIBUTE } from '#lib/db/table.ts';
import { transactWrite, tx, type TxWrite } from '#lib/db/transact.ts';
import { AuthenticationFailed } from '#lib/errors.ts';
import { epochSeconds, isoTimestamp, nowMicros } from '#lib/time.ts';

// The token entity. Tokens are 40 lowercase hex characters: the user's id (8, public anyway: GET
// /auth shows it) and 32 from a CSPRNG (128 bits). Only their SHA-256 is stored, so a copy of the
// table does not let anyone log in; lookups go by hash, never by comparing secrets. The id lets a
// request read the caller's own list while its token is being checked (GET /posts/me): the
// token's record, not the prefix, decides who the caller is.

const TOKEN_PATTERN = /^[0-9a-f]{40}$/;

export interface Caller {
  userId: number;
  username: string;
  token: string;
  /**
   * A moderator (docs/api.md, Moderators): read from the token's record with the token itself,
   * which login writes from the credentials and set-moderator rewrites (lib/auth/moderators.ts).
   */
  moderator?: boolean;
}

/** The token record's attribute that says its user is a moderator. */
export const MODERATOR_ATTRIBUTE = 'is_moderator';

const ID_DIGITS = 8;

export function newToken(userId: number): string {
  return userId.toString(16).padStart(ID_DIGITS, '0').slice(-ID_DIGITS) + randomBytes(16).toString('hex');
}

/** The user id a well-formed token names; only a hint until its record confirms it (callerFromItem). */
export function tokenUserHint(token: string): number {
  return Number.parseInt(token.slice(0, ID_DIGITS), 16);
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export function isWellFormedToken(token: string): boolean {
  return TOKEN_PATTERN.test(token);
}

/** The stored record of a freshly issued token. */
export function newTokenItem(token: string, user: { id: number; username: string; moderator?: boolean }): Record<string, unknown> {
  const micros = nowMicros();
  const created = isoTimestamp(micros);
  return {
    ...keys.token(hashToken(token)),
    [INDEXES.lists.partitionKey]: listPartitions.tokensOf(user.username),
    [INDEXES.lists.sortKey]: listSortKeys.token(created),
    user_id: user.id,
    username: user.username,
    [MODERATOR_ATTRIBUTE]: user.moderator === true,
    created,
    [TTL_ATTRIBUTE]: epochSeconds(micros) + Math.round(tokenTtlDays() * 86400),
  };
}

/** The key of a token's record. */
export function tokenKey(token: string): Key {
  return keys.token(hashToken(token));
}

/** The caller a stored token record stands for; null when absent or expired. */
export function callerFromItem(item: Record<string, unknown> | undefined, token: string): Caller | null {
  // DynamoDB deletes expired items only eventually (DynamoDB Local never): check expiry here.
  if (!item || Number(item[TTL_ATTRIBUTE]) <= epochSeconds()) return null;
  return { userId: Number(item.user_id), username: String(item.username), token, moderator: item[MODERATOR_ATTRIBUTE] === true };
}

/** The caller a token belongs to; null for an unknown, revoked or expired token. */
export async function findCaller(token: string): Promise<Caller | null> {
  if (!isWellFormedToken(token)) return null;
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: tokenKey(token), ConsistentRead: true }));
  return callerFromItem(Item, token);
}

/** A token's delete found it gone or expired. */
class TokenNotLive extends Error {
  override name = 'TokenNotLive';
}

/**
 * Deletes a live token; false when it was unknown or already expired. One conditional delete in a
 * transaction, for its ClientRequestToken: a delete whose answer was lost (a timeout) and that is
 * sent again reports the delete it made, never "already gone" (lib/db/transact.ts).
 */
export async function revokeToken(token: string): Promise<boolean> {
  if (!isWellFormedToken(token)) return false;
  try {
    await transactWrite([
      {
        write: tx.delete(tokenKey(token), {
          expression: 'attribute_exists(PK) AND #expires > :now',
          names: { '#expires': TTL_ATTRIBUTE },
          values: { ':now': epochSeconds() },
        }),
        onConditionFailed: () => new TokenNotLive(),
      },
    ]);
    return true;
  } catch (error) {
    if (error instanceof TokenNotLive) return false;
    throw error;
  }
}

/** Every token item a user holds, all pages of the index: its keys and `attributes` (GSI1 holds the whole item). */
export async function tokenItemsOf(username: string, attributes: string[] = []): Promise<Record<string, unknown>[]> {
  const found: Record<string, unknown>[] = [];
  const names = Object.fromEntries(attributes.map((name, i) => [`#a${i}`, name]));
  let startKey: Record<string, unknown> | undefined;
  do {
    const response = await db().send(
      new QueryCommand({
        TableName: tableName(),
        IndexName: INDEXES.lists.name,
        KeyConditionExpression: '#pk = :pk',
        ExpressionAttributeNames: { '#pk': INDEXES.lists.partitionKey, ...names },
        ExpressionAttributeValues: { ':pk': listPartitions.tokensOf(username) },
        ProjectionExpression: ['PK', 'SK', ...Object.keys(names)].join(', '),
        ...(startKey ? { ExclusiveStartKey: startKey } : {}),
      }),
    );
    found.push(...(response.Items ?? []));
    startKey = response.LastEvaluatedKey;
  } while (startKey);
  return found;
}

/** Keys of every token a user holds (for revoking them all). */
export async function tokenKeysOf(username: string): Promise<Key[]> {
  return (await tokenItemsOf(username)).map(keyOf);
}

/**
 * The condition, in a write's transaction, that the caller's token is still live: a logout,
 * password change or deactivation that commits first makes the write fail with a 401 and store
 * nothing (docs/api.md, Authentication).
 */
export function tokenStillValid(caller: Caller): TxWrite {
  return {
    write: tx.check(tokenKey(caller.token), {
      expression: 'attribute_exists(PK) AND #expires > :now',
      names: { '#expires': TTL_ATTRIBUTE },
      values: { ':now': epochSeconds() },
    }),
    onConditionFailed: () => new AuthenticationFailed(),
  };
}
