import { batchGet, type BatchResult } from '#lib/db/batch.ts';
import { couldBeSlug } from '#lib/slugs/rules.ts';
import { postFromRead, postKeys, type PostRecord } from './post.ts';

/**
 * The post stored under `slug`, read strongly consistent (the admin CLI and the seed; the API reads
 * with the token). `as` reads it from the batch: leniently by default, or as a change must
 * (postToChange: a torn pair is a conflict).
 */
export async function getPost(slug: string, as: (read: BatchResult, slug: string) => PostRecord | undefined = postFromRead): Promise<PostRecord | undefined> {
  if (!couldBeSlug(slug)) return undefined;
  return as(await batchGet(postKeys(slug)), slug);
}
