import { batchDelete } from '#lib/db/batch.ts';
import { keyString, type Key } from '#lib/db/keys.ts';
import { transactWrite, tx, type TxWrite } from '#lib/db/transact.ts';
import { tokenKeysOf } from './tokens.ts';

// The index that lists a user's tokens is eventually consistent: a token issued just before the
// account changed may show up in it a moment later. After the change commits no new token can be
// issued (login checks the credentials in its transaction), so sweeping until a pass finds
// nothing, a second apart, catches the stragglers.
const SWEEP_INTERVAL_MS = 1000;
const MAX_SWEEPS = 5;

/**
 * Commits `change` (writes to the user's items) together with the deletion of the user's tokens
 * (all but `keep`, the token of a user changing their own password), then sweeps for tokens the
 * index had not shown yet.
 */
export async function changeRevokingTokens(username: string, change: TxWrite[], keep?: Key): Promise<void> {
  const kept = keep ? keyString(keep) : undefined;
  const others = async () => (await tokenKeysOf(username)).filter((key) => keyString(key) !== kept);
  const tokens: Key[] = await others();
  const inTransaction = tokens.slice(0, 100 - change.length);
  await transactWrite([...change, ...inTransaction.map((key) => ({ write: tx.delete(key) }))]);
  let remaining = tokens.slice(inTransaction.length);
  for (let sweep = 0; sweep < MAX_SWEEPS; sweep++) {
    await batchDelete(remaining);
    await new Promise((done) => setTimeout(done, SWEEP_INTERVAL_MS));
    remaining = await others();
    if (remaining.length === 0) return;
  }
  await batchDelete(remaining);
}
