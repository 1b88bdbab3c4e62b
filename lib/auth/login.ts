import { loginFailureLimits } from '#lib/config.ts';
import { batchGet } from '#lib/db/batch.ts';
import { keys } from '#lib/db/keys.ts';
import { transactWrite, tx } from '#lib/db/transact.ts';
import { ValidationError } from '#lib/errors.ts';
import { epochSeconds, isoTimestamp } from '#lib/time.ts';
import { profileLoginWrite, USERNAME_MAX_LENGTH } from '#lib/profiles/profile.ts';
import { credentialsUnchangedCheck, usablePasswordHash } from './account.ts';
import { verifyPassword } from './passwords.ts';
import { clearWrite, counterFor, countOf, exhausted, incrementWrite, type Counter } from './rate-limits.ts';
import { newToken, newTokenItem } from './tokens.ts';

const invalidCredentials = () => new ValidationError({ non_field_errors: ['Unable to log in with provided credentials.'] });

/** The failed-login counters a login from `address` for `username` is subject to (docs/api.md, endpoint 1). */
function failureCounters(username: string, address: string, now: number): { pair: Counter; address: Counter; username: Counter } {
  const limits = loginFailureLimits();
  return {
    pair: counterFor('login-pair', [username, address], limits.pair, now),
    address: counterFor('login-address', [address], limits.address, now),
    username: counterFor('login-username', [username], limits.username, now),
  };
}

/**
 * Checks a username and password from a source address and issues a new token. The credentials
 * and the failure counters are one BatchGetItem; a username, address or pair over its limit is a
 * 429 before any password check. Every refusal (unknown user, wrong password, inactive account, no
 * usable password) does the same bcrypt work, counts the failure in one transaction and gives the
 * same answer; a success clears the pair's failures in its own transaction.
 */
export async function login(username: string, password: string, address: string): Promise<string> {
  const now = epochSeconds();
  const counters = failureCounters(username, address, now);
  const all = [counters.pair, counters.address, counters.username];
  // A username that cannot exist has no credentials to read (and could not be a key).
  const credentialsKey = username.length <= USERNAME_MAX_LENGTH ? keys.userCredentials(username) : null;
  const read = await batchGet([...(credentialsKey ? [credentialsKey] : []), ...all.map((counter) => counter.key)]);
  const throttled = exhausted(
    all.map((counter) => ({ counter, count: countOf(read.get(counter.key), now) })),
    now,
  );
  if (throttled) throw throttled;
  const credentials = credentialsKey ? read.get(credentialsKey) : undefined;
  const usable = usablePasswordHash(credentials);
  if (!(await verifyPassword(password, usable)) || !credentials) {
    await transactWrite(all.map(incrementWrite));
    throw invalidCredentials();
  }
  const token = newToken(Number(credentials.id));
  await transactWrite([
    // A moderator's token says so (lib/auth/moderators.ts): read with the token, never on its own.
    { write: tx.put(newTokenItem(token, { id: Number(credentials.id), username, moderator: credentials.is_moderator === true })) },
    profileLoginWrite(username, isoTimestamp(), invalidCredentials),
    credentialsUnchangedCheck(username, usable, invalidCredentials),
    clearWrite(counters.pair),
  ]);
  return token;
}
