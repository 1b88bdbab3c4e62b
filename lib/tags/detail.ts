import type { BatchResult, Item } from '#lib/db/batch.ts';
import type { Key } from '#lib/db/keys.ts';
import { NotFound } from '#lib/errors.ts';
import { tagKey } from './tag.ts';

/** What GET /tags/detail/{slug} reads with the token: the tag, unless the slug cannot exist. */
export function tagDetailReads(slug: string): Key[] {
  const key = tagKey(slug);
  return key ? [key] : [];
}

/** The tag in the read; 404 when there is none. */
export function tagDetail(read: BatchResult, slug: string): Item {
  const key = tagKey(slug);
  const tag = key ? read.get(key) : undefined;
  if (!tag) throw new NotFound();
  return tag;
}
