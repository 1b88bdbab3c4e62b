import type { Caller } from '#lib/auth/tokens.ts';
import type { BatchResult } from '#lib/db/batch.ts';
import { visiblePost } from '#lib/posts/access.ts';
import { postFromRead } from '#lib/posts/post.ts';
import { favoriteState, isFavorite } from './favorite.ts';

/** GET /posts/detail/{slug}/favorite: whether the caller holds the post, and its count. `read` is the read made with the token. */
export async function showFavorite(caller: Caller, slug: string, read: BatchResult) {
  const post = visiblePost(postFromRead(read, slug), caller);
  return favoriteState(await isFavorite(post.id, caller.userId), post);
}
