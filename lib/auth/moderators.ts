import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { tableName } from '#lib/config.ts';
import { db } from '#lib/db/client.ts';
import { keys } from '#lib/db/keys.ts';
import { transactWrite, tx } from '#lib/db/transact.ts';
import { PermissionDenied } from '#lib/errors.ts';
import { requireCredentials } from './account.ts';
import { MODERATOR_ATTRIBUTE, tokenItemsOf, type Caller } from './tokens.ts';

// Moderators (docs/api.md, Moderators). Whether a user moderates is on their credentials (what a
// login reads: a new token says it at once), on their profile (what the API shows) and on each
// of their tokens, so that a request learns it with its token, in the same read. Setting it
// rewrites the tokens the user holds, then sweeps again, a second apart, for tokens the index
// showed late (a login that read the credentials just before the change), as a revocation does
// (revoke-tokens.ts): existing tokens follow within seconds.

export const MODERATORS_ONLY = 'Only moderators may do this.';

/** The 403 of a route for moderators: after the token check, before anything else. */
export function requireModerator(caller: Caller): void {
  if (!caller.moderator) throw new PermissionDenied(MODERATORS_ONLY);
}

const SWEEP_INTERVAL_MS = 1000;
const MAX_SWEEPS = 5;

/** The keys of the user's tokens that do not say `moderator` yet (all pages of the index). */
async function tokensToChange(username: string, moderator: boolean): Promise<{ PK: string; SK: string }[]> {
  const tokens = await tokenItemsOf(username, [MODERATOR_ATTRIBUTE]);
  return tokens.filter((item) => (item[MODERATOR_ATTRIBUTE] === true) !== moderator).map((item) => ({ PK: String(item.PK), SK: String(item.SK) }));
}

/** Rewrites the flag on these tokens; one revoked meanwhile stays revoked (the update is conditioned on it still being there). */
async function setOnTokens(tokens: { PK: string; SK: string }[], moderator: boolean): Promise<void> {
  await Promise.all(
    tokens.map(async (key) => {
      try {
        await db().send(
          new UpdateCommand({
            TableName: tableName(),
            Key: key,
            UpdateExpression: 'SET #moderator = :moderator',
            ConditionExpression: 'attribute_exists(PK)',
            ExpressionAttributeNames: { '#moderator': MODERATOR_ATTRIBUTE },
            ExpressionAttributeValues: { ':moderator': moderator },
          }),
        );
      } catch (error) {
        if ((error as { name?: string }).name !== 'ConditionalCheckFailedException') throw error;
      }
    }),
  );
}

/** `npm run admin -- set-moderator --username U [--off]`: makes the user a moderator, or not. */
export async function setModerator(username: string, moderator: boolean): Promise<void> {
  await requireCredentials(username);
  const flag = { expression: `SET ${MODERATOR_ATTRIBUTE} = :moderator`, values: { ':moderator': moderator } };
  await transactWrite([
    { write: tx.update(keys.userCredentials(username), flag, { expression: 'attribute_exists(PK)' }) },
    { write: tx.update(keys.userProfile(username), flag, { expression: 'attribute_exists(PK)' }) },
  ]);
  for (let sweep = 0; sweep <= MAX_SWEEPS; sweep++) {
    const tokens = await tokensToChange(username, moderator);
    if (tokens.length === 0 && sweep > 0) return;
    await setOnTokens(tokens, moderator);
    if (sweep < MAX_SWEEPS) await new Promise((done) => setTimeout(done, SWEEP_INTERVAL_MS));
  }
}
