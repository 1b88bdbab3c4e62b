import { NotFound } from '#lib/http/errors.ts';
import { withRetries } from '#lib/retry.ts';
import { commitPostChange } from './changes.ts';
import { getPost } from './get.ts';
import { postToChange, type PostRecord } from './post.ts';

/** Sets is_featured (an administrator's action, from the admin CLI) and keeps the author's counter exact. */
export function setFeatured(slug: string, featured: boolean): Promise<PostRecord> {
  return withRetries(async () => {
    const before = await getPost(slug, postToChange);
    if (!before) throw new NotFound();
    if (before.is_featured === featured) return before;
    const after = { ...before, is_featured: featured, version: before.version + 1 };
    await commitPostChange({ before, after });
    return after;
  });
}
