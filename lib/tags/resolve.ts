import type { BatchResult } from '#lib/db/batch.ts';
import { keys, type Key } from '#lib/db/keys.ts';
import { candidateKeys, firstFreeSlug } from '#lib/slugs/free-slug.ts';
import { slugify } from '#lib/slugs/slugify.ts';
import { tagTitleKey, type TagRef } from './tag.ts';

// The tags of a post being written, given as titles: existing tags matched by title, new ones
// given a free slug to be created in the post's transaction.

// How many slug candidates of a new tag are read up front; more are read only on collision.
export const TAG_SLUG_WINDOW = 2;

/** Keys to read so that `resolveTags` can match the titles: title claims and slug candidates. */
export function tagKeys(titles: string[]): Key[] {
  return titles.flatMap((title) => [tagTitleKey(title), ...candidateKeys(slugify(title), keys.tag, TAG_SLUG_WINDOW)]);
}

export interface ResolvedTags {
  /** Every tag of the post, in the order given, with the existing tag's own title. */
  tags: TagRef[];
  /** The ones that do not exist yet and are created with the post. */
  created: TagRef[];
}

/** Matches titles case-insensitively to existing tags; unknown titles get a free slug. */
export async function resolveTags(titles: string[], read: BatchResult): Promise<ResolvedTags> {
  const tags: TagRef[] = [];
  const created: TagRef[] = [];
  const reserved = new Set<string>();
  for (const title of titles) {
    const claim = read.get(tagTitleKey(title));
    if (claim) {
      tags.push({ title: String(claim.title), slug: String(claim.slug) });
      continue;
    }
    const slug = await firstFreeSlug({ base: slugify(title), keyOf: keys.tag, window: TAG_SLUG_WINDOW, firstWindow: read, reserved });
    reserved.add(slug);
    const tag = { title, slug };
    tags.push(tag);
    created.push(tag);
  }
  return { tags, created };
}
