import { profileDeactivationWrite } from '#lib/profiles/profile.ts';
import { credentialsDeactivationWrite, requireCredentials } from './account.ts';
import { changeRevokingTokens } from './revoke-tokens.ts';

/** Deactivates an account: it leaves the users list, cannot log in, and its tokens stop working. */
export async function deactivateUser(username: string): Promise<void> {
  await requireCredentials(username);
  await changeRevokingTokens(username, [credentialsDeactivationWrite(username), profileDeactivationWrite(username)]);
}
