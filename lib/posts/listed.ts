import { batchGet } from '#lib/db/batch.ts';
import { keys, postLists } from '#lib/db/keys.ts';
import { postFromItems, type PostRecord } from './post.ts';
import { listedPostFromRead, listedPostKeys, needsText, type PostView } from './summary.ts';

// Posts read by slug for a page of a list, in the list's view: one BatchGetItem of their text (or
// summary) and stats items, eventually consistent as the index their slugs came from. A post
// written before summaries existed has no summary item: its text is read after (one more round
// trip, for those posts only) and its summary computed from it; the Markdown parser that takes is
// loaded then, not when a list function starts.

/** The posts under `slugs` in `view`. */
export async function readListedPosts(slugs: readonly string[], view: PostView): Promise<Map<string, PostRecord | undefined>> {
  const posts = new Map<string, PostRecord | undefined>();
  if (slugs.length === 0) return posts;
  const wanted = [...new Set(slugs)];
  const read = await batchGet(
    wanted.flatMap((slug) => listedPostKeys(slug, view)),
    undefined,
    { consistent: false },
  );
  const late: string[] = [];
  for (const slug of wanted) {
    if (view === 'summary' && needsText(read, slug)) late.push(slug);
    else posts.set(slug, listedPostFromRead(read, slug, view));
  }
  if (late.length > 0) {
    const [texts, { summaryOf }] = await Promise.all([
      batchGet(
        late.flatMap((slug) => [keys.post(slug), keys.postStats(slug)]),
        undefined,
        { consistent: false },
      ),
      import('./summarize.ts'),
    ]);
    for (const slug of late) {
      const post = postFromItems(texts.get(keys.post(slug)), texts.get(keys.postStats(slug)));
      posts.set(slug, post && { ...post, summary: summaryOf(post) });
    }
  }
  return posts;
}

/** A post to read by id, and the slug it was last known under (a favorite's, a search posting's). */
export interface PostRef {
  id: string;
  slug: string;
}

/**
 * The posts `refs` in `view`, by id: each read at the slug it was known under, and one no longer
 * there (renamed since: another post may hold that slug now) at the slug its `mine` entry names,
 * which two more round trips read, for those posts only. Undefined for a post gone.
 */
export async function readPostsById(refs: readonly PostRef[], view: PostView): Promise<Map<string, PostRecord | undefined>> {
  const readAt = async (at: readonly PostRef[]) => {
    const read = await readListedPosts(
      at.map(({ slug }) => slug),
      view,
    );
    return new Map(at.map(({ id, slug }) => [id, read.get(slug)?.id === id ? read.get(slug) : undefined]));
  };
  const found = await readAt(refs);
  const lost = refs.filter(({ id }) => found.get(id) === undefined);
  if (lost.length === 0) return found;
  const entries = await batchGet(lost.map(({ id }) => keys.postEntry(id, postLists.mine)));
  const moved = lost.flatMap(({ id, slug }) => {
    const entry = entries.get(keys.postEntry(id, postLists.mine));
    return entry && String(entry.slug) !== slug ? [{ id, slug: String(entry.slug) }] : [];
  });
  if (moved.length > 0) for (const [id, post] of await readAt(moved)) found.set(id, post);
  return found;
}
