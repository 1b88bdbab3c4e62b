import { tokenStillValid, type Caller } from '#lib/auth/tokens.ts';
import { readForAttempt, type BatchResult } from '#lib/db/batch.ts';
import type { Key } from '#lib/db/keys.ts';
import { withRetries } from '#lib/retry.ts';
import { couldBeSlug } from '#lib/slugs/rules.ts';
import { visiblePost } from './access.ts';
import { commitPostChange } from './changes.ts';
import { postToChange, postKeys, type PostRecord } from './post.ts';
import { firstVisitWrite } from './visits.ts';

/** What GET /posts/detail/{slug} reads with the token: the post, unless the slug cannot exist. */
export function postReads(slug: string): Key[] {
  return couldBeSlug(slug) ? postKeys(slug) : [];
}

class AlreadyVisited extends Error {}

/**
 * A post for its detail page, recording the caller's visit: the first view by a user adds one to
 * total_visitors, in the same transaction that stores the (post, user) visit item. A HEAD request
 * reads without recording (`recordVisit: false`), and so does an anonymous reader (null caller):
 * visitors are users. `read` is the read made with the token.
 */
export function viewPost(caller: Caller | null, slug: string, read: BatchResult, { recordVisit = true } = {}): Promise<PostRecord> {
  return withRetries(async (attempt) => {
    const post = visiblePost(postToChange(await readForAttempt(attempt, read), slug), caller);
    if (!recordVisit || caller === null) return post;
    const visited = { ...post, total_visitors: post.total_visitors + 1, version: post.version + 1 };
    try {
      await commitPostChange({
        before: post,
        after: visited,
        with: [tokenStillValid(caller), firstVisitWrite(post.id, caller.userId, () => new AlreadyVisited())],
      });
      return visited;
    } catch (error) {
      if (error instanceof AlreadyVisited) return post;
      throw error;
    }
  });
}
