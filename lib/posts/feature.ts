import { batchGet } from '#lib/db/batch.ts';
import { NotFound } from '#lib/http/errors.ts';
import { couldBeSlug } from '#lib/slugs/rules.ts';
import { withRetries } from '#lib/retry.ts';
import { commitPostChange } from './changes.ts';
import { postKeys, postToChange, type PostRecord } from './post.ts';

/** Sets is_featured (an administrator's action, from the admin CLI) and keeps the author's counter exact. */
export function setFeatured(slug: string, featured: boolean): Promise<PostRecord> {
  return withRetries(async () => {
    const before = couldBeSlug(slug) ? postToChange(await batchGet(postKeys(slug)), slug) : undefined;
    if (!before) throw new NotFound();
    if (before.is_featured === featured) return before;
    const after = { ...before, is_featured: featured, version: before.version + 1 };
    await commitPostChange({ before, after });
    return after;
  });
}
