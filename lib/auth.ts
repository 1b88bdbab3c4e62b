import { batchGet, type BatchResult } from './db/batch.ts';
import type { Key } from './db/keys.ts';
import { AuthenticationFailed, NotAuthenticated } from './errors.ts';
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

/** The caller of a request (one GetItem), or the 401 the contract prescribes. */
export async function authenticate(authorization: string | undefined): Promise<Caller> {
  const token = tokenFromHeader(authorization);
  if (token === null) throw new NotAuthenticated();
  const caller = await findCaller(token);
  if (!caller) throw new AuthenticationFailed();
  return caller;
}

export interface CallerAndItems {
  caller: Caller;
  read: BatchResult;
}

/**
 * The caller together with the items an operation needs, read in one BatchGetItem with the token
 * record: an authenticated read costs one round trip. Rejects with the 401 of the contract.
 */
export async function authenticateAndRead(authorization: string | undefined, itemKeys: Key[]): Promise<CallerAndItems> {
  const token = tokenFromHeader(authorization);
  if (token === null) throw new NotAuthenticated();
  if (!isWellFormedToken(token)) throw new AuthenticationFailed();
  const read = await batchGet([tokenKey(token), ...itemKeys]);
  const caller = callerFromItem(read.get(tokenKey(token)), token);
  if (!caller) throw new AuthenticationFailed();
  return { caller, read };
}

/** Reads items together with the caller's token: what write operations are given. */
export type ReadAsCaller = (itemKeys: Key[]) => Promise<CallerAndItems>;
