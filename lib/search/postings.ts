import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { searchTableName } from '#lib/config.ts';
import { batchDelete, batchGet, batchPut, type Item } from '#lib/db/batch.ts';
import { db } from '#lib/db/client.ts';
import { keys, keyString, postLists, type Key } from '#lib/db/keys.ts';
import { postTextFromItem, type PostText } from '#lib/posts/post.ts';
import { nowMs } from '#lib/time.ts';
import { rebuildMayMissRenames } from './rebuild-state.ts';
import { postTerms } from './terms.ts';

// The posting entity: the search index, one item per (term, post) (terms.ts), kept by the table's
// stream consumer (indexing.ts) from the post's text item. Its key puts it in its term's partition
// at the post's place by creation; it carries what a list needs to keep or drop the post without
// reading it (its author), the slug its items were under when the posting was written (a hint: a
// rename writes no posting for the terms it keeps), the post's words that go on past the term, and
// `text_version`, the version of the text it was written from: deletes are conditioned on it, so
// that records of one post handled in any order (a rename's insert and remove are two items, so
// two shards) never delete what a newer text wrote; and `written_at`, when it was written. Drafts are indexed as published posts are:
// publishing writes no posting, and a list of published posts tells a draft when it reads it.

/** What the index knows of a post: from its text item (a stream image), the fields a posting copies, the searched text and the version. */
const INDEXED = ['id', 'author', 'author_id', 'created', 'slug', 'text_version', 'title', 'description', 'keywords', 'meta_description'] as const;
export type IndexedPost = Pick<PostText, (typeof INDEXED)[number]>;

/**
 * A posting as a search reads it: `slug` is where the post's items were when the posting was
 * written (read there first, and found through the post's `mine` entry when it moved since);
 * `key` its place in the term's partition (the post's key by creation); `words` the post's words
 * that go on past the term (terms.ts).
 */
export interface Posting {
  post_id: string;
  slug: string;
  author: string;
  author_id: number;
  key: string;
  text_version: number;
  words: string[];
}

/** The post a text item image holds, or undefined for an image that is not one. */
export function indexedPost(image: Item | undefined): IndexedPost | undefined {
  if (!image || typeof image.id !== 'string' || typeof image.title !== 'string' || typeof image.description !== 'string') return undefined;
  const text = postTextFromItem(image);
  return Object.fromEntries(INDEXED.map((field) => [field, text[field]])) as IndexedPost;
}

/** The terms a post has a posting for, each with its `words`, as one comparable string (as a posting stores them). */
export function indexedTerms(post: IndexedPost): Map<string, string> {
  return new Map([...postTerms(post)].map(([term, words]) => [term, words.join(' ')]));
}

/** The key of `post`'s posting of `term`. */
export const postingKey = (post: Pick<IndexedPost, 'id' | 'created'>, term: string): Key => keys.posting(term, post.created, post.id);

function postingItem(post: IndexedPost, term: string, words: string): Item {
  return {
    ...postingKey(post, term),
    slug: post.slug,
    author: post.author,
    author_id: post.author_id,
    text_version: post.text_version,
    ...(words ? { words } : {}),
    // When it was written (epoch ms): a rebuild of the index deletes what was not written since it began (reindex.ts).
    written_at: nowMs(),
  };
}

/** A posting read back from the index (the post's id ends its key: the id holds no `#`). */
export function postingFromItem(item: Item): Posting {
  return {
    post_id: String(item.SK).slice(String(item.SK).lastIndexOf('#') + 1),
    slug: String(item.slug),
    author: String(item.author),
    author_id: Number(item.author_id),
    key: String(item.SK),
    text_version: Number(item.text_version ?? 0),
    words: typeof item.words === 'string' && item.words !== '' ? item.words.split(' ') : [],
  };
}

/** The writes that take the index from a post's text `before` to `after` (either may be absent). */
export interface PostingChange {
  puts: Item[];
  /** The text the puts come from and their terms (undefined without puts). */
  written?: { post: IndexedPost; terms: string[] };
  /**
   * A text removed with no text after it under its key: a deletion, or the old slug of a rename
   * (whose new text, under the new slug, writes nothing itself: this removal brings the postings
   * from the old text to the current one).
   */
  removed?: IndexedPost;
  /** Postings to delete if they were written before version `below`. */
  deletes: { key: Key; below: number }[];
}

/**
 * A text under a slug where no text was: a create (text version 1), or the new slug of a rename (a
 * later version: the post's postings exist, and the old slug's removal brings them to this text).
 */
const isMoved = (before: IndexedPost | undefined, after: IndexedPost) => before === undefined && after.text_version > 1;

/** The terms of `now` that `had` lacks or has with other words. */
const changedTerms = (had: ReadonlyMap<string, string>, now: ReadonlyMap<string, string>) => [...now.keys()].filter((term) => had.get(term) !== now.get(term));

/**
 * What a change of a text item does to the index. A new text writes the postings of the terms it
 * added or whose words it changed, and deletes those of the terms it dropped (all of them for a
 * create; none for the new slug of a rename, whose old slug's removal does it); a removed text (a
 * deletion, or the old slug of a rename) deletes its postings that are not newer than it. The slug
 * a posting names is not rewritten when only the slug changed, nor is anything for a publish.
 */
export function postingChange(before: IndexedPost | undefined, after: IndexedPost | undefined): PostingChange {
  if (before && after && before.id !== after.id) {
    // Another post under the same key: the old one's postings go, the new one's all come.
    const removal = postingChange(before, undefined);
    return { ...postingChange(undefined, after), deletes: removal.deletes };
  }
  const old = before ? indexedTerms(before) : new Map<string, string>();
  if (!after)
    return { puts: [], deletes: [...old.keys()].map((term) => ({ key: postingKey(before!, term), below: before!.text_version + 1 })), removed: before! };
  if (isMoved(before, after)) return { puts: [], deletes: [] };
  return termsChange(old, after, before ? after.text_version : undefined);
}

/** The puts of `after`'s terms that `old` lacks or has otherwise, and the deletes below version `below` (none when undefined) of those `after` lacks. */
function termsChange(old: ReadonlyMap<string, string>, after: IndexedPost, below: number | undefined): PostingChange {
  const now = indexedTerms(after);
  const terms = changedTerms(old, now);
  return {
    puts: terms.map((term) => postingItem(after, term, now.get(term)!)),
    ...(terms.length > 0 ? { written: { post: after, terms } } : {}),
    deletes: below === undefined ? [] : [...old.keys()].filter((term) => !now.has(term)).map((term) => ({ key: postingKey(after, term), below })),
  };
}

/** Every posting of a post's text, as a rebuild of the index writes them (reindex.ts): all its terms, checked like a create's. */
export function fullPostings(post: IndexedPost): PostingChange {
  return termsChange(new Map(), post, undefined);
}

/** Conditional single-item writes in flight at once per change. */
const WRITES_IN_FLIGHT = 16;

const isConditionFailure = (error: unknown) => (error as { name?: string }).name === 'ConditionalCheckFailedException';

/** Runs the writes WRITES_IN_FLIGHT at a time; a failed condition means a newer text got there first. */
async function conditionalWrites(writes: (() => Promise<unknown>)[]): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < writes.length) {
      const write = writes[next++]!;
      await write().catch((error: unknown) => {
        if (!isConditionFailure(error)) throw error;
      });
    }
  };
  await Promise.all(Array.from({ length: Math.min(WRITES_IN_FLIGHT, writes.length) }, worker));
}

const conditionalDelete =
  ({ key, below }: PostingChange['deletes'][number]) =>
  () =>
    db().send(
      new DeleteCommand({
        TableName: searchTableName(),
        Key: key,
        ConditionExpression: 'text_version < :below',
        ExpressionAttributeValues: { ':below': below },
      }),
    );

/**
 * After the puts of `post`'s postings went out unconditioned: whether its text is still the one
 * they were written from. The stats item beside the text says which text version is current under
 * the slug (a rename moves it, a deletion removes it).
 */
async function stillCurrent(post: IndexedPost): Promise<boolean> {
  const stats = await readItem(keys.postStats(post.slug));
  return stats !== undefined && stats.post_id === post.id && Number(stats.text_version) === post.text_version;
}

/** One item of the table, strongly consistent (a batch read: the consumer is granted no GetItem). */
const readItem = async (key: Key) => (await batchGet([key])).get(key);

/**
 * The post `id` as it stands now: `gone` once its `mine` entry is (the entry lives exactly as long
 * as the post), else its current text, or undefined when that text moved between the two reads.
 */
async function currentText(id: string): Promise<IndexedPost | 'gone' | undefined> {
  const entry = await readItem(keys.postEntry(id, postLists.mine));
  if (!entry) return 'gone';
  const text = indexedPost(await readItem(keys.post(String(entry.slug))));
  return text?.id === id ? text : undefined;
}

/** Puts of postings sent unconditioned: the text they come from and their terms. */
type Written = NonNullable<PostingChange['written']>;

/**
 * Puts that went out unconditioned may have overwritten the postings of a newer text (whose
 * record was handled first: a rename's two items can sit in two shards) or put back terms it
 * dropped. This brings those terms to the post's current text: the ones it has are put again from
 * it (unconditioned as well, so checked in turn: the puts of the current text, or undefined when
 * the post is gone), the others deleted, conditioned on the version as usual.
 */
async function repairPuts({ post, terms }: Written): Promise<Written | undefined> {
  const found = await currentText(post.id);
  if (found === undefined) throw new Error(`The text of post ${post.id} moved while it was read: the record is retried`);
  const current = found === 'gone' ? undefined : found;
  const now = current ? indexedTerms(current) : new Map<string, string>();
  const kept = terms.filter((term) => now.has(term));
  await Promise.all([
    batchPut(
      kept.map((term) => postingItem(current!, term, now.get(term)!)),
      searchTableName(),
    ),
    conditionalWrites(
      terms
        .filter((term) => !now.has(term))
        .map((term) => conditionalDelete({ key: postingKey(post, term), below: current ? current.text_version : post.text_version + 1 })),
    ),
  ]);
  return current && kept.length > 0 ? { post: current, terms: kept } : undefined;
}

/**
 * A removed text's writes, as the post now stands (its `mine` entry, read consistently, is there
 * exactly as long as the post): a post deleted for good has every posting deleted in batches,
 * unconditioned (its id is never used again, and a late put of it is repaired as any other); a
 * post renamed away from this slug is brought from the removed text to its current one, the
 * terms it gained or changed put and the ones it lost deleted, conditioned as usual. A rename
 * then costs the terms it changed, whatever the post's length.
 */
async function removal(
  removed: IndexedPost,
  deletes: PostingChange['deletes'],
): Promise<{ puts: Item[]; written?: Written; conditional: PostingChange['deletes']; unconditioned: Key[] }> {
  const [current, rebuilding] = await Promise.all([currentText(removed.id), rebuildMayMissRenames()]);
  if (current === 'gone') return { puts: [], conditional: [], unconditioned: deletes.map(({ key }) => key) };
  if (current === undefined) throw new Error(`The text of post ${removed.id} moved while it was read: the record is retried`);
  const now = indexedTerms(current);
  const kept = new Set([...now.keys()].map((term) => keyString(postingKey(removed, term))));
  // A rebuild's scan may have missed the post (its text moved behind the scan): then every term.
  const gained = rebuilding ? [...now.keys()] : changedTerms(indexedTerms(removed), now);
  return {
    puts: gained.map((term) => postingItem(current, term, now.get(term)!)),
    ...(gained.length > 0 ? { written: { post: current, terms: gained } } : {}),
    conditional: deletes.filter(({ key }) => !kept.has(keyString(key))),
    unconditioned: [],
  };
}

/**
 * Applies a change. The puts go out in batches (BatchWriteItem, 25 postings a call: a new post of
 * 1.5 KB has a hundred terms or more), unconditioned, and are then checked against the post's current text
 * version (one consistent read of its stats item); only when a newer text came first are they
 * redone from it (repairPuts). Deletes are single writes conditioned on the version, so a
 * removed text never deletes what a newer one wrote. Idempotent: applied again, it leaves the
 * index as it is. Throws on any other failure (the stream record is then retried).
 */
export async function applyPostingChange(change: PostingChange): Promise<void> {
  const writes = change.removed ? await removal(change.removed, change.deletes) : { ...change, conditional: change.deletes, unconditioned: [] };
  await Promise.all([
    batchPut(writes.puts, searchTableName()),
    batchDelete(writes.unconditioned, searchTableName()),
    conditionalWrites(writes.conditional.map(conditionalDelete)),
  ]);
  for (let written = writes.written; written && !(await stillCurrent(written.post));) written = await repairPuts(written);
}
