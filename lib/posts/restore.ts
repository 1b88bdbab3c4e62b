import { NotFound } from '#lib/errors.ts';
import { withRetries } from '#lib/retry.ts';
import { commitPostChange } from './changes.ts';
import { getPost } from './get.ts';
import { postToChange, type PostRecord } from './post.ts';

/**
 * `npm run admin -- restore-post --slug S`: lifts the mark a moderator's removal left on a post
 * (lib/reports/resolve.ts). The post stays a draft: its author publishes it again. False when it
 * carried no mark.
 */
export function restorePost(slug: string): Promise<boolean> {
  return withRetries(async () => {
    const before = await getPost(slug, postToChange);
    if (!before) throw new NotFound();
    if (!before.removed) return false;
    const after: PostRecord = { ...before, removed: false, version: before.version + 1 };
    await commitPostChange({ before, after });
    return true;
  });
}
