import { batchGet, BatchResult } from '#lib/db/batch.ts';
import type { Key } from '#lib/db/keys.ts';
import { AuthenticationFailed, NotAuthenticated } from '#lib/errors.ts';
import { callerFromItem, findCaller, isWellFormedToken, tokenKey, type Caller } from './tokens.ts';

export type { Caller };

/**
 * The token of an `Authorization: Token <value>` header (keyword case-insensitive, as DRF).
 * Anything else is no credentials at all.
 */
export function tokenFromHeader(header: string | undefined): string | null {
  if (!header) return null;
  const parts = header.trim().split(/\s+/);
  if (parts.length !== 2 || parts[0]!.toLowerCase() !== 'token') return null;
  return parts[1]!;
}

/**
 * The 401 of the contract for a header that cannot hold a valid token (no DynamoDB call), or the
 * token it holds.
 */
export function presentedToken(authorization: string | undefined): string {
  const token = tokenFromHeader(authorization);
  if (token === null) throw new NotAuthenticated();
  if (!isWellFormedToken(token)) throw new AuthenticationFailed();
  return token;
}

export interface Authenticated<C extends Caller | null = Caller> {
  caller: C;
  /** The items read with the token (none when no keys were asked for). */
  read: BatchResult;
}

/**
 * The caller of a token together with the items an operation needs, in one call: a GetItem of the
 * token alone, or one BatchGetItem of the token and the items. Rejects with the 401 of the contract.
 */
export async function authenticate(token: string, itemKeys: Key[] = []): Promise<Authenticated> {
  if (itemKeys.length === 0) {
    const caller = await findCaller(token);
    if (!caller) throw new AuthenticationFailed();
    return { caller, read: BatchResult.EMPTY };
  }
  const read = await batchGet([tokenKey(token), ...itemKeys]);
  const caller = callerFromItem(read.get(tokenKey(token)), token);
  if (!caller) throw new AuthenticationFailed();
  return { caller, read };
}
