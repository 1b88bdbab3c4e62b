import { usablePasswordHash } from '#lib/auth/account.ts';
import { passwordProblems } from '#lib/auth/password-rules.ts';
import { hashPassword, verifyPassword } from '#lib/auth/passwords.ts';
import { changeRevokingTokens } from '#lib/auth/revoke-tokens.ts';
import { tokenKey, type Caller } from '#lib/auth/tokens.ts';
import type { BatchResult } from '#lib/db/batch.ts';
import { keys, type Key } from '#lib/db/keys.ts';
import { TTL_ATTRIBUTE } from '#lib/db/table.ts';
import { tx } from '#lib/db/transact.ts';
import { AuthenticationFailed, NotFound, PermissionDenied, ValidationError } from '#lib/errors.ts';
import { epochSeconds } from '#lib/time.ts';
import { check, type Input } from '#lib/validation.ts';
import { USERNAME_MAX_LENGTH } from '#lib/profiles/profile.ts';

export const WRONG_PASSWORD = 'Wrong password.';

/** What the token's BatchGetItem reads for a password change: the credentials of the path's user. */
export function passwordChangeReads(username: string): Key[] {
  return username.length > 0 && username.length <= USERNAME_MAX_LENGTH ? [keys.userCredentials(username)] : [];
}

/**
 * POST /users/detail/{username}/password: the owner gives the current password and a new one
 * (checked as at sign-up). 404 for an unknown user, 403 for someone else's account, then 400 with
 * every field's problems. The new hash is written only if the password is still the one checked
 * and the caller's token still valid, in one transaction with the deletion of every other token
 * of the user; the caller's token keeps working.
 */
export async function changePassword(caller: Caller, username: string, read: BatchResult, body: Input): Promise<void> {
  const [key] = passwordChangeReads(username);
  const credentials = key ? read.get(key) : undefined;
  if (!credentials) throw new NotFound();
  if (caller.username !== username) throw new PermissionDenied('You are not owner of this profile!');
  // Deactivation revokes the account's tokens: this caller's is being revoked.
  if (credentials.is_active !== true) throw new AuthenticationFailed();
  const { values, errors } = check(body, {
    old_password: { type: 'string', required: true, trim: false },
    new_password: { type: 'string', required: true, trim: false },
  });
  if (Object.keys(errors).length > 0) throw new ValidationError(errors);
  const current = usablePasswordHash(credentials);
  const oldPassword = values.old_password as string;
  const newPassword = values.new_password as string;
  if (!(await verifyPassword(oldPassword, current)) || !current) errors.old_password = [WRONG_PASSWORD];
  const problems = passwordProblems(newPassword, username);
  if (problems.length > 0) errors.new_password = problems;
  if (Object.keys(errors).length > 0) throw new ValidationError(errors);
  const hash = await hashPassword(newPassword);
  // A password changed or an account deactivated since the read revoked this caller's token.
  const revoked = () => new AuthenticationFailed();
  await changeRevokingTokens(
    username,
    [
      {
        write: tx.update(
          key!,
          { expression: 'SET password = :hash', values: { ':hash': hash } },
          { expression: 'password = :current AND is_active = :true', values: { ':current': current, ':true': true } },
        ),
        onConditionFailed: revoked,
      },
      {
        write: tx.check(tokenKey(caller.token), {
          expression: 'attribute_exists(PK) AND #expires > :now',
          names: { '#expires': TTL_ATTRIBUTE },
          values: { ':now': epochSeconds() },
        }),
        onConditionFailed: revoked,
      },
    ],
    tokenKey(caller.token),
  );
}
