import type { Caller } from '#lib/auth/tokens.ts';
import { NotFound, PermissionDenied } from '#lib/errors.ts';
import { isVisibleTo, type PostRecord } from './post.ts';

// Who may see and who may change a post, and the version a change was based on.

export const NOT_OWNER = 'You are not owner of this post!';

/** A post the caller may see (published, or their own draft; an anonymous reader, null, only published); 404 otherwise. */
export function visiblePost(post: PostRecord | undefined, caller: Caller | null): PostRecord {
  if (!post || !isVisibleTo(post, caller?.username)) throw new NotFound();
  return post;
}

/** The post if the caller may change it: 404 when unseen, 403 when someone else's. */
export function ownedPost(stored: PostRecord | undefined, caller: Caller): PostRecord {
  const post = visiblePost(stored, caller);
  if (post.author !== caller.username) throw new PermissionDenied(NOT_OWNER);
  return post;
}

/**
 * The condition on a post's stats item that it is still the post that was read, at the version
 * that was read (optimistic locking). The id matters: the slug may have passed to another post
 * that has since reached the same version.
 */
export const atVersion = (post: Pick<PostRecord, 'id' | 'version'>) => ({
  expression: 'version = :v AND post_id = :id',
  values: { ':v': post.version, ':id': post.id },
});
