import { tokenStillValid, type Caller } from '#lib/auth/tokens.ts';
import { readForAttempt, type BatchResult } from '#lib/db/batch.ts';
import { visiblePost } from '#lib/posts/access.ts';
import { commitPostChange } from '#lib/posts/changes.ts';
import { postToChange } from '#lib/posts/post.ts';
import { withRetries } from '#lib/retry.ts';
import { addFavoriteWrites, favoriteState } from './favorite.ts';

class AlreadyFavorite extends Error {}

/**
 * POST /posts/detail/{slug}/favorite: the favorite item, the post's count and the caller's
 * profile count in one transaction, conditioned on there being no favorite yet, on the post's
 * version and on the caller's token. Idempotent: a favorite already there changes nothing.
 */
export function addFavorite(caller: Caller, slug: string, read: BatchResult) {
  return withRetries(async (attempt) => {
    const post = visiblePost(postToChange(await readForAttempt(attempt, read), slug), caller);
    const after = { ...post, total_favorites: post.total_favorites + 1, version: post.version + 1 };
    try {
      await commitPostChange({ before: post, after, with: [tokenStillValid(caller), ...addFavoriteWrites(post, caller, () => new AlreadyFavorite())] });
      return favoriteState(true, after);
    } catch (error) {
      // Only the favorite's condition failed, not the post's version (that would be a retry): the
      // post is as read, and the read already counted the favorite.
      if (error instanceof AlreadyFavorite) return favoriteState(true, post);
      throw error;
    }
  });
}
