import { credentialsReactivationWrite } from '#lib/auth/account.ts';
import { requireModerator } from '#lib/auth/moderators.ts';
import { changeRevokingTokens } from '#lib/auth/revoke-tokens.ts';
import { tokenStillValid, type Caller } from '#lib/auth/tokens.ts';
import type { BatchResult, Item } from '#lib/db/batch.ts';
import { keys, type Key } from '#lib/db/keys.ts';
import { transactWrite, tx } from '#lib/db/transact.ts';
import { NotFound, PermissionDenied } from '#lib/errors.ts';
import { profileDeactivationWrites, profileKey, profileReactivationWrites } from '#lib/profiles/profile.ts';

// GET, POST and DELETE /users/detail/{username}/suspension (docs/api.md, Moderators): what a
// moderator sees of a user's suspension, suspends them (as `deactivate-user`: their tokens
// revoked, their profile, posts and comments kept) and reinstates them (as `reactivate-user`).
// Idempotent; a moderator is never suspended. The user's profile and credentials are read with
// the token.

export const MODERATOR_NOT_SUSPENDABLE = 'A moderator cannot be suspended.';

/** What the routes read with the token: the user's profile and credentials, unless the name cannot exist. */
export function suspensionReads(username: string): Key[] {
  return profileKey(username) ? [keys.userProfile(username), keys.userCredentials(username)] : [];
}

interface Account {
  profile: Item;
  credentials: Item;
  moderator: boolean;
}

function account(caller: Caller, username: string, read: BatchResult): Account {
  requireModerator(caller);
  const profile = profileKey(username) ? read.get(keys.userProfile(username)) : undefined;
  const credentials = profile && read.get(keys.userCredentials(username));
  if (!profile || !credentials) throw new NotFound();
  return { profile, credentials, moderator: credentials.is_moderator === true };
}

const state = (suspended: boolean) => ({ suspended });

/** GET: whether the user is suspended (a moderator never is). */
export function showSuspension(caller: Caller, username: string, read: BatchResult) {
  const user = account(caller, username, read);
  return state(!user.moderator && user.credentials.is_active !== true);
}

/** The credentials' change of a suspension, on condition that the user is still no moderator. */
function suspensionWrite(username: string) {
  return {
    write: tx.update(
      keys.userCredentials(username),
      { expression: 'SET is_active = :false', values: { ':false': false } },
      { expression: 'attribute_not_exists(is_moderator) OR is_moderator = :false' },
    ),
    onConditionFailed: () => new PermissionDenied(MODERATOR_NOT_SUSPENDABLE),
  };
}

/** POST: suspends the user; their tokens stop working at once, those the index shows late within about a second. */
export async function suspendUser(caller: Caller, username: string, read: BatchResult) {
  const user = account(caller, username, read);
  if (user.moderator) throw new PermissionDenied(MODERATOR_NOT_SUSPENDABLE);
  if (user.credentials.is_active !== true) return state(true);
  await changeRevokingTokens(username, [
    tokenStillValid(caller),
    suspensionWrite(username),
    ...profileDeactivationWrites(username, user.profile.is_active === true),
  ]);
  return state(true);
}

/** DELETE: reinstates the user; they log in again (their old tokens stay revoked). */
export async function reinstateUser(caller: Caller, username: string, read: BatchResult) {
  const user = account(caller, username, read);
  if (user.moderator) throw new PermissionDenied(MODERATOR_NOT_SUSPENDABLE);
  if (user.credentials.is_active === true) return state(false);
  await transactWrite([tokenStillValid(caller), credentialsReactivationWrite(username), ...profileReactivationWrites(user.profile)]);
  return state(false);
}
