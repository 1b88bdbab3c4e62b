import { NotFound } from '#lib/errors.ts';
import { withRetries } from '#lib/retry.ts';
import { commitPostChange } from './changes.ts';
import { summaryOf } from './summarize.ts';
import { getPost } from './get.ts';
import { postToChange, type PostRecord } from './post.ts';

/** The administrator's featuring of a draft is refused: nobody but its author would see it featured. */
export class DraftNotFeatured extends Error {
  override name = 'DraftNotFeatured';
}

/**
 * Sets is_featured (an administrator's action, from the admin CLI) and keeps the author's counter
 * exact. With `refuseDrafts` (the CLI's), featuring a draft throws DraftNotFeatured; without it a
 * draft is featured, as one becomes when a featured post is unpublished (the tests' shortcut).
 */
export function setFeatured(slug: string, featured: boolean, options: { refuseDrafts?: boolean } = {}): Promise<PostRecord> {
  return withRetries(async () => {
    const before = await getPost(slug, postToChange);
    if (!before) throw new NotFound();
    if (before.is_featured === featured) return before;
    if (featured && options.refuseDrafts && !before.publish) throw new DraftNotFeatured(`The post "${slug}" is a draft: publish it before featuring it.`);
    const after = { ...before, is_featured: featured, version: before.version + 1 };
    await commitPostChange({ before, after, summary: summaryOf(after) });
    return after;
  });
}
