import { tokenStillValid, type Caller } from '#lib/auth/tokens.ts';
import { readForAttempt, type BatchResult } from '#lib/db/batch.ts';
import { visiblePost } from '#lib/posts/access.ts';
import { commitPostChange } from '#lib/posts/changes.ts';
import { postToChange } from '#lib/posts/post.ts';
import { withRetries } from '#lib/retry.ts';
import { favoriteState, removeFavoriteWrites } from './favorite.ts';

class NotFavorite extends Error {}

/**
 * DELETE /posts/detail/{slug}/favorite: removes the favorite with both counts in one
 * transaction, conditioned as addFavorite's. Idempotent: without a favorite nothing changes.
 */
export function removeFavorite(caller: Caller, slug: string, read: BatchResult) {
  return withRetries(async (attempt) => {
    const post = visiblePost(postToChange(await readForAttempt(attempt, read), slug), caller);
    const after = { ...post, total_favorites: post.total_favorites - 1, version: post.version + 1 };
    try {
      await commitPostChange({ before: post, after, with: [tokenStillValid(caller), ...removeFavoriteWrites(post.id, caller, () => new NotFavorite())] });
      return favoriteState(false, after);
    } catch (error) {
      // As in addFavorite: the post's version held, so the read's count is without the favorite.
      if (error instanceof NotFavorite) return favoriteState(false, post);
      throw error;
    }
  });
}
