import { tokenStillValid, type Caller } from '#lib/auth/tokens.ts';
import { readForAttempt, type BatchResult } from '#lib/db/batch.ts';
import { PermissionDenied } from '#lib/errors.ts';
import { visiblePost } from '#lib/posts/access.ts';
import { commitPostChange } from '#lib/posts/changes.ts';
import { postToChange, type PostRecord } from '#lib/posts/post.ts';
import { RetryableConflict, withRetries } from '#lib/retry.ts';
import type { Input } from '#lib/validation.ts';
import { parseVote } from './input.ts';
import { postWithVote, readVote, voteState, voteWrite, type VoteValue } from './vote.ts';

const OWN_POST = 'You cannot vote on your own post.';

class AlreadyVoted extends Error {}

/** One transaction: the vote from `before` to `wanted`, the post's counts and moved entries, the token's check. */
async function commitVote(caller: Caller, post: PostRecord, before: VoteValue | null, wanted: VoteValue) {
  const after = postWithVote(post, before, wanted);
  const vote = voteWrite(post.id, caller.userId, before, wanted);
  // Only a vote assumed absent says "already voted"; any other failed condition is a race, retried from the reads.
  await commitPostChange({
    before: post,
    after,
    with: [tokenStillValid(caller), before === null ? { ...vote, onConditionFailed: () => new AlreadyVoted() } : vote],
  });
  return voteState(wanted, after);
}

/**
 * POST /posts/detail/{slug}/vote: sets the caller's one vote. The vote item, the post's counts
 * and the entries whose `votes` sort key moves change in one transaction, conditioned on the
 * vote as it was, the post's version and the caller's token. The vote's key needs the post's id,
 * which only the first read gives; then the transaction that assumes no vote yet (a user's first
 * vote) and a read of the vote go together: a first vote, or the same vote again (which writes
 * nothing), is two round trips in all; a switch, three.
 */
export function castVote(caller: Caller, slug: string, read: BatchResult, body: Input) {
  return withRetries(async (attempt) => {
    const post = visiblePost(postToChange(await readForAttempt(attempt, read), slug), caller);
    if (post.author === caller.username) throw new PermissionDenied(OWN_POST);
    const wanted = parseVote(body);
    const [first, existing] = await Promise.allSettled([commitVote(caller, post, null, wanted), readVote(post.id, caller.userId)]);
    if (first.status === 'fulfilled') return first.value;
    if (!(first.reason instanceof AlreadyVoted)) throw first.reason;
    if (existing.status === 'rejected') throw existing.reason;
    // There was a vote when the transaction ran: the read, made alongside, shows it (or a race).
    const before = existing.value;
    if (before === wanted) return voteState(wanted, post);
    if (before === null) throw new RetryableConflict('vote removed meanwhile');
    return commitVote(caller, post, before, wanted);
  });
}
