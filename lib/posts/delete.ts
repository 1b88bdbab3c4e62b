import { tokenStillValid, type Caller } from '#lib/auth/tokens.ts';
import { readForAttempt, type BatchResult } from '#lib/db/batch.ts';
import { withRetries } from '#lib/retry.ts';
import { PermissionDenied } from '#lib/errors.ts';
import { NOT_OWNER, visiblePost } from './access.ts';
import { commitPostChange } from './changes.ts';
import { postToChange } from './post.ts';

/**
 * DELETE /posts/detail/{slug}: the author (or a moderator) removes the post, its list entries and
 * its counters in one transaction. Its visits, votes, favorites, comments and reports, which may
 * be too many for any transaction, are removed after it by the table's stream consumer
 * (functions/streams/table.ts). `read` is the read made with the token.
 */
export function deletePost(caller: Caller, slug: string, read: BatchResult): Promise<void> {
  return withRetries(async (attempt) => {
    const post = visiblePost(postToChange(await readForAttempt(attempt, read), slug), caller);
    if (post.author !== caller.username && !caller.moderator) throw new PermissionDenied(NOT_OWNER);
    await commitPostChange({ before: post, after: null, with: [tokenStillValid(caller)] });
  });
}
