import { tokenStillValid, type Caller } from '#lib/auth/tokens.ts';
import { readForAttempt, type BatchResult } from '#lib/db/batch.ts';
import { visiblePost } from '#lib/posts/access.ts';
import { commitPostChange } from '#lib/posts/changes.ts';
import { postToChange } from '#lib/posts/post.ts';
import { withRetries } from '#lib/retry.ts';
import { postWithVote, readVote, voteState, voteWrite } from './vote.ts';

/**
 * DELETE /posts/detail/{slug}/vote: removes the caller's vote, if any, in one transaction with
 * the post's counts (conditioned as castVote's). Without a vote it writes nothing.
 */
export function removeVote(caller: Caller, slug: string, read: BatchResult) {
  return withRetries(async (attempt) => {
    const post = visiblePost(postToChange(await readForAttempt(attempt, read), slug), caller);
    const before = await readVote(post.id, caller.userId);
    if (before === null) return voteState(null, post);
    const after = postWithVote(post, before, null);
    await commitPostChange({ before: post, after, with: [tokenStillValid(caller), voteWrite(post.id, caller.userId, before, null)] });
    return voteState(null, after);
  });
}
