import { profileDeactivationWrites } from '#lib/profiles/profile.ts';
import { credentialsDeactivationWrite, requireCredentials } from './account.ts';
import { changeRevokingTokens } from './revoke-tokens.ts';

/** Deactivates an account: it leaves the users list, cannot log in, and its tokens stop working. */
export async function deactivateUser(username: string): Promise<void> {
  const credentials = await requireCredentials(username);
  await changeRevokingTokens(username, [credentialsDeactivationWrite(username), ...profileDeactivationWrites(username, credentials.is_active === true)]);
}
