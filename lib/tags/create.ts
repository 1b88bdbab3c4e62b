import { tokenStillValid, type Caller } from '#lib/auth/tokens.ts';
import { readForAttempt, type BatchResult, type Item } from '#lib/db/batch.ts';
import { keys, type Key } from '#lib/db/keys.ts';
import { transactWrite } from '#lib/db/transact.ts';
import { Conflict } from '#lib/errors.ts';
import { firstFreeSlug } from '#lib/slugs/free-slug.ts';
import { withRetries } from '#lib/retry.ts';
import { SlugContention, SlugTaken } from '#lib/slugs/tickets.ts';
import type { TagInput } from './input.ts';
import { TAG_SLUG_WINDOW, tagKeys } from './resolve.ts';
import { newTagsTotalWrites, newTagWrites, tagTitleKey, type TagRef, type TagTaken } from './tag.ts';

const exists = () => new Conflict('Tag already exists.');

/** What POST /tags reads with the token: for a slug derived from the title, the title's claim and the slug candidates. */
export function createTagReads(input: TagInput): Key[] {
  return input.derived ? tagKeys([input.title]) : [];
}

/**
 * POST /tags: a tag with no posts. A slug given in the request that is taken, or a title taken
 * (case-insensitively), is 409; a slug derived from the title gets `-1`, `-2`, ... when taken, as
 * a post's does (docs/api.md, Slugs). 401 when the caller's token went first.
 */
export async function createTag(caller: Caller, input: TagInput, read: BatchResult): Promise<Item> {
  if (!input.derived) return commitTag(caller, input, { slug: exists, title: exists });
  const contention = new SlugContention('tag');
  return withRetries(async (attempt) => {
    const current = await readForAttempt(attempt, read);
    if (current.get(tagTitleKey(input.title))) throw exists();
    const slug = await firstFreeSlug({ base: input.base, keyOf: keys.tag, window: TAG_SLUG_WINDOW, firstWindow: current, tickets: contention.tickets });
    return contention.claim(commitTag(caller, { title: input.title, slug }, { title: exists, slug: () => new SlugTaken(slug) }));
  });
}

async function commitTag(caller: Caller, tag: TagRef, onTaken: TagTaken): Promise<Item> {
  await transactWrite([tokenStillValid(caller), ...newTagWrites(tag, 0, 0, onTaken), ...newTagsTotalWrites([tag])]);
  return { title: tag.title, slug: tag.slug, total_posts: 0 };
}
