import { passwordWrite, requireCredentials } from './account.ts';
import { hashPassword } from './passwords.ts';
import { changeRevokingTokens } from './revoke-tokens.ts';

/**
 * Sets a new password; the user's existing tokens stop working. Answers whether the account is
 * active: a deactivated one keeps refusing logins, new password or not, until it is reactivated.
 */
export async function setPassword(username: string, password: string): Promise<{ active: boolean }> {
  const credentials = await requireCredentials(username);
  await changeRevokingTokens(username, [passwordWrite(username, await hashPassword(password))]);
  return { active: credentials.is_active === true };
}
