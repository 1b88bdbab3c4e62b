import type { Caller } from '#lib/auth/tokens.ts';
import { readForAttempt, type BatchResult } from '#lib/db/batch.ts';
import { transactWrite, tx } from '#lib/db/transact.ts';
import { withRetries } from '#lib/retry.ts';
import { atVersion, ownedPost } from './access.ts';
import { counterWrites } from './counters.ts';
import { postFromRead, postKey } from './post.ts';
import { removeVisits } from './visits.ts';

/**
 * DELETE /posts/detail/{slug}: the author removes the post and its counters in one transaction,
 * then its visits. `read` is the read made with the token (postReads).
 */
export async function deletePost(caller: Caller, slug: string, read: BatchResult): Promise<void> {
  const removed = await withRetries(async (attempt) => {
    const post = ownedPost(postFromRead(await readForAttempt(attempt, read), slug), caller);
    await transactWrite([{ write: tx.delete(postKey(post.slug), atVersion(post.version)) }, ...counterWrites(post.author, post, null, [])]);
    return post;
  });
  // Only a post someone has viewed has visit items to remove.
  if (removed.total_visitors > 0) await removeVisits(removed.id);
}
