import { tokenStillValid, type Caller } from '#lib/auth/tokens.ts';
import { readForAttempt, type BatchResult } from '#lib/db/batch.ts';
import { visiblePost } from '#lib/posts/access.ts';
import { commitPostChange } from '#lib/posts/changes.ts';
import { postToChange, type PostRecord } from '#lib/posts/post.ts';
import { RetryableConflict, withRetries } from '#lib/retry.ts';
import { postWithVote, readVote, voteState, voteWrite, type VoteValue } from './vote.ts';

class NotThatVote extends Error {}

/**
 * One transaction: the caller's vote `before` removed, the post's counts and moved entries, the
 * token's check. A guessed `before` that is not the vote fails with NotThatVote; a known one that
 * changed meanwhile is a race, retried from the reads.
 */
async function commitRemoval(caller: Caller, post: PostRecord, before: VoteValue, guessed: boolean) {
  const after = postWithVote(post, before, null);
  const vote = { ...voteWrite(post.id, caller.userId, before, null), ...(guessed ? { onConditionFailed: () => new NotThatVote() } : {}) };
  await commitPostChange({ before: post, after, with: [tokenStillValid(caller), vote] });
  return voteState(null, after);
}

/**
 * DELETE /posts/detail/{slug}/vote: removes the caller's vote, if any, in one transaction with
 * the post's counts (conditioned as castVote's). As a vote, it needs the post's id from the first
 * read; then the removal of an `up` vote (the likelier) goes with a read of the vote: removing an
 * up vote, or no vote (nothing written), is two round trips; a down vote, three.
 */
export function removeVote(caller: Caller, slug: string, read: BatchResult) {
  return withRetries(async (attempt) => {
    const post = visiblePost(postToChange(await readForAttempt(attempt, read), slug), caller);
    const [first, existing] = await Promise.allSettled([commitRemoval(caller, post, 'up', true), readVote(post.id, caller.userId)]);
    if (first.status === 'fulfilled') return first.value;
    if (!(first.reason instanceof NotThatVote)) throw first.reason;
    if (existing.status === 'rejected') throw existing.reason;
    const before = existing.value;
    if (before === null) return voteState(null, post);
    // The read saw the up vote the transaction did not find: a race, started again from the reads.
    if (before === 'up') throw new RetryableConflict('vote changed meanwhile');
    return commitRemoval(caller, post, before, false);
  });
}
