import { transactWrite, tx } from '#lib/db/transact.ts';
import { ValidationError } from '#lib/http/errors.ts';
import { isoTimestamp } from '#lib/time.ts';
import { profileLoginWrite } from '#lib/users/profile.ts';
import { credentialsUnchangedCheck, getCredentials, usablePasswordHash } from './account.ts';
import { verifyPassword } from './passwords.ts';
import { newToken, newTokenItem } from './tokens.ts';

const invalidCredentials = () =>
  new ValidationError({ non_field_errors: ['Unable to log in with provided credentials.'] });

/**
 * Checks a username and password and issues a new token. Every refusal (unknown user, wrong
 * password, inactive account, no usable password) does the same bcrypt work and gives the same answer.
 */
export async function login(username: string, password: string): Promise<string> {
  const credentials = await getCredentials(username);
  const usable = usablePasswordHash(credentials);
  if (!(await verifyPassword(password, usable)) || !credentials) throw invalidCredentials();
  const token = newToken(Number(credentials.id));
  await transactWrite([
    { write: tx.put(newTokenItem(token, { id: Number(credentials.id), username })) },
    profileLoginWrite(username, isoTimestamp(), invalidCredentials),
    credentialsUnchangedCheck(username, usable, invalidCredentials),
  ]);
  return token;
}
