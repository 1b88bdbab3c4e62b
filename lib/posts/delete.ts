import { tokenStillValid, type Caller } from '#lib/auth/tokens.ts';
import { readForAttempt, type BatchResult } from '#lib/db/batch.ts';
import { withRetries } from '#lib/retry.ts';
import { ownedPost } from './access.ts';
import { commitPostChange } from './changes.ts';
import { postToChange } from './post.ts';

/**
 * DELETE /posts/detail/{slug}: the author removes the post, its list entries and its counters in
 * one transaction. Its visits, which may be too many for any transaction, are removed after it by
 * the table's stream consumer (functions/streams/table.ts). `read` is the read made with the token.
 */
export function deletePost(caller: Caller, slug: string, read: BatchResult): Promise<void> {
  return withRetries(async (attempt) => {
    const post = ownedPost(postToChange(await readForAttempt(attempt, read), slug), caller);
    await commitPostChange({ before: post, after: null, with: [tokenStillValid(caller)] });
  });
}
