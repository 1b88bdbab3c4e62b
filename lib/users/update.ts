import { tokenStillValid, type Caller } from '#lib/auth/tokens.ts';
import type { BatchResult, Item } from '#lib/db/batch.ts';
import { keys } from '#lib/db/keys.ts';
import { transactWrite, tx } from '#lib/db/transact.ts';
import { AuthenticationFailed, PermissionDenied } from '#lib/errors.ts';
import { validate, type Input } from '#lib/validation.ts';
import { profileDetail } from './detail.ts';
import { PROFILE_SPECS } from '#lib/profiles/profile.ts';

/**
 * PUT /users/detail/{username}: the owner sets any subset of the editable fields (others keep
 * their value). 404 for an unknown user, then 403 for someone else's profile (deactivated or
 * not), then the body's 400, as DRF orders them. Returns the stored profile.
 */
export async function updateProfile(caller: Caller, username: string, read: BatchResult, body: Input): Promise<Item> {
  const profile = profileDetail(read, username);
  if (caller.username !== username) throw new PermissionDenied('You are not owner of this profile!');
  // Deactivation revokes the account's tokens: an owner still getting here holds a token that
  // the deactivation is revoking (the tokens past its transaction go in a sweep after it).
  if (profile.is_active !== true) throw new AuthenticationFailed();
  const changes = validate(body, PROFILE_SPECS);
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = { ':true': true };
  const sets = Object.entries(changes).map(([field, value], i) => {
    names[`#f${i}`] = field;
    values[`:v${i}`] = value;
    return `#f${i} = :v${i}`;
  });
  // An empty update still checks that the profile exists.
  const setClause = sets.length > 0 ? `SET ${sets.join(', ')}` : 'SET is_active = :true';
  // The caller's token is checked in the same transaction: a logout, password change or
  // deactivation that commits first leaves the profile as it was (401). The profile was read, so
  // its condition fails only on a deactivation since, which revoked the token too.
  await transactWrite([
    tokenStillValid(caller),
    {
      write: tx.update(
        keys.userProfile(username),
        { expression: setClause, ...(Object.keys(names).length ? { names } : {}), values },
        { expression: 'is_active = :true' },
      ),
      onConditionFailed: () => new AuthenticationFailed(),
    },
  ]);
  // What is stored: the profile read, with the fields this request set (a transaction returns no item).
  return { ...profile, ...changes };
}
