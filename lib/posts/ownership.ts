import { PermissionDenied } from '../errors.ts';
import type { Caller } from '../tokens.ts';
import { visiblePost } from './read.ts';
import type { PostRecord } from './record.ts';

// What changing a post requires: being its author, and the version that was read.

const NOT_OWNER = 'You are not owner of this post!';

/** The condition that the post is still at the version that was read (optimistic locking). */
export const atVersion = (version: number) => ({ expression: 'version = :v', values: { ':v': version } });

/** The post at `slug` if the caller may change it: 404 when unseen, 403 when someone else's. */
export function ownedPost(stored: PostRecord | undefined, caller: Caller): PostRecord {
  const post = visiblePost(stored, caller);
  if (post.author !== caller.username) throw new PermissionDenied(NOT_OWNER);
  return post;
}
