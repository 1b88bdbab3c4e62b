import { tokenStillValid, type Caller } from '#lib/auth/tokens.ts';
import { readForAttempt, type BatchResult } from '#lib/db/batch.ts';
import { PermissionDenied } from '#lib/http/errors.ts';
import { visiblePost } from '#lib/posts/access.ts';
import { commitPostChange } from '#lib/posts/changes.ts';
import { postToChange } from '#lib/posts/post.ts';
import { withRetries } from '#lib/retry.ts';
import type { Input } from '#lib/validation.ts';
import { parseVote } from './input.ts';
import { postWithVote, readVote, voteState, voteWrite } from './vote.ts';

const OWN_POST = 'You cannot vote on your own post.';

/**
 * POST /posts/detail/{slug}/vote: sets the caller's one vote. The vote item, the post's counts
 * and the entries whose `votes` sort key moves change in one transaction, conditioned on the
 * vote read, the post's version and the caller's token. Voting the same way again writes nothing.
 */
export function castVote(caller: Caller, slug: string, read: BatchResult, body: Input) {
  return withRetries(async (attempt) => {
    const post = visiblePost(postToChange(await readForAttempt(attempt, read), slug), caller);
    if (post.author === caller.username) throw new PermissionDenied(OWN_POST);
    const wanted = parseVote(body);
    const before = await readVote(post.id, caller.userId);
    if (before === wanted) return voteState(wanted, post);
    const after = postWithVote(post, before, wanted);
    await commitPostChange({ before: post, after, with: [tokenStillValid(caller), voteWrite(post.id, caller.userId, before, wanted)] });
    return voteState(wanted, after);
  });
}
