import { AuthenticationFailed, NotAuthenticated } from './errors.ts';
import { findCaller, type Caller } from './tokens.ts';

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
 * Resolves the caller of a request, or rejects with the 401 the contract prescribes. Starting it
 * returns at once, so a handler can run its own reads in parallel with the token lookup.
 */
export async function authenticate(authorization: string | undefined): Promise<Caller> {
  const token = tokenFromHeader(authorization);
  if (token === null) throw new NotAuthenticated();
  const caller = await findCaller(token);
  if (!caller) throw new AuthenticationFailed();
  return caller;
}
