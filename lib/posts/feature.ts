import { transactWrite, tx } from '#lib/db/transact.ts';
import { NotFound } from '#lib/http/errors.ts';
import { withRetries } from '#lib/retry.ts';
import { atVersion } from './access.ts';
import { counterWrites } from './counters.ts';
import { getPost } from './get.ts';
import { postToItem, type PostRecord } from './post.ts';

/** Sets is_featured (an administrator's action, from the admin CLI) and keeps the author's counter exact. */
export function setFeatured(slug: string, featured: boolean): Promise<PostRecord> {
  return withRetries(async () => {
    const before = await getPost(slug);
    if (!before) throw new NotFound();
    if (before.is_featured === featured) return before;
    const after = { ...before, is_featured: featured, version: before.version + 1 };
    await transactWrite([{ write: tx.put(postToItem(after), atVersion(before.version)) }, ...counterWrites(before.author, before, after, [])]);
    return after;
  });
}
