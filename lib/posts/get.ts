import { batchGet } from '#lib/db/batch.ts';
import { couldBeSlug } from '#lib/slugs/rules.ts';
import { postFromRead, postKeys, type PostRecord } from './post.ts';

/** The post stored under `slug`, read strongly consistent (the admin CLI and the seed; the API reads with the token). */
export async function getPost(slug: string): Promise<PostRecord | undefined> {
  if (!couldBeSlug(slug)) return undefined;
  return postFromRead(await batchGet(postKeys(slug)), slug);
}
