import type { Caller } from '#lib/auth/tokens.ts';
import type { BatchResult } from '#lib/db/batch.ts';
import { visiblePost } from '#lib/posts/access.ts';
import { postFromRead } from '#lib/posts/post.ts';
import { readVote, voteState } from './vote.ts';

/** GET /posts/detail/{slug}/vote: the caller's vote and the post's counts. `read` is the read made with the token. */
export async function showVote(caller: Caller, slug: string, read: BatchResult) {
  const post = visiblePost(postFromRead(read, slug), caller);
  return voteState(await readVote(post.id, caller.userId), post);
}
