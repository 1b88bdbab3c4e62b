import { passwordWrite, requireCredentials } from './account.ts';
import { hashPassword } from './passwords.ts';
import { changeRevokingTokens } from './revoke-tokens.ts';

/** Sets a new password; the user's existing tokens stop working. */
export async function setPassword(username: string, password: string): Promise<void> {
  await requireCredentials(username);
  await changeRevokingTokens(username, [passwordWrite(username, await hashPassword(password))]);
}
