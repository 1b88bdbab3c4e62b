import { tokenStillValid, type Caller } from '#lib/auth/tokens.ts';
import type { Item } from '#lib/db/batch.ts';
import { transactWrite } from '#lib/db/transact.ts';
import { Conflict } from '#lib/http/errors.ts';
import { newTagWrites, type TagRef } from './tag.ts';

/** Creates a tag with no posts; 409 when its title or slug is taken, 401 when the caller's token went first. */
export async function createTag(caller: Caller, tag: TagRef): Promise<Item> {
  await transactWrite([tokenStillValid(caller), ...newTagWrites(tag, 0, () => new Conflict('Tag already exists.'))]);
  return { title: tag.title, slug: tag.slug, total_posts: 0 };
}
