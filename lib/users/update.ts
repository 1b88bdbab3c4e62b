import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { tableName } from '#lib/config.ts';
import type { BatchResult, Item } from '#lib/db/batch.ts';
import { db } from '#lib/db/client.ts';
import { keys } from '#lib/db/keys.ts';
import { AuthenticationFailed, PermissionDenied } from '#lib/http/errors.ts';
import { validate, type Input } from '#lib/validation.ts';
import { profileDetail } from './detail.ts';
import { PROFILE_SPECS } from './profile.ts';

/**
 * PUT /users/detail/{username}: the owner sets any subset of the editable fields (others keep
 * their value). 404 for an unknown user, then 403 for someone else's profile (deactivated or
 * not), then the body's 400, as DRF orders them. Returns the stored profile.
 */
export async function updateProfile(caller: { username: string }, username: string, read: BatchResult, body: Input): Promise<Item> {
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
  try {
    const { Attributes } = await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.userProfile(username),
        UpdateExpression: setClause,
        ConditionExpression: 'is_active = :true',
        ...(Object.keys(names).length ? { ExpressionAttributeNames: names } : {}),
        ExpressionAttributeValues: values,
        ReturnValues: 'ALL_NEW',
      }),
    );
    return Attributes!;
  } catch (error) {
    // The profile was read: only a deactivation since then fails the condition, and it revoked the token.
    if ((error as { name?: string }).name === 'ConditionalCheckFailedException') throw new AuthenticationFailed();
    throw error;
  }
}
