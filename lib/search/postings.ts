import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { searchTableName } from '#lib/config.ts';
import { batchDelete, batchGet, batchPut, type Item } from '#lib/db/batch.ts';
import { db } from '#lib/db/client.ts';
import { keys, keyString, postLists, type Key } from '#lib/db/keys.ts';
import { postTextFromItem, type PostText } from '#lib/posts/post.ts';
import { postWords, type SearchableText } from './words.ts';

// The posting entity: the search index, one item per (word, post), kept by the table's stream
// consumer (indexing.ts) from the post's text item. A posting carries what a list needs to keep or
// drop the post without reading it (the list fields of postings.LISTED), the slug its items were
// under when the posting was written (a hint: a rename writes no posting for the words it keeps)
// and `text_version`, the version of the text it was written from: deletes are conditioned on it,
// so that records of one post handled in any order (a rename's insert and remove are two items,
// so two shards) never delete what a newer text wrote. A draft has one more posting, its draft
// mark (DRAFT_MARK), so that publishing or unpublishing writes one item, not one per word.

/**
 * Words are indexed by their first 64 characters (a sort key holds at most 1,024 bytes, and a text
 * without spaces is one word); a longer query word is looked up by the same 64 and then checked on
 * the post's text.
 */
export const INDEXED_WORD_LENGTH = 64;

/** The indexed form of a word (or of a query word: the prefix looked up). */
export function indexedWord(word: string): string {
  const characters = Array.from(word);
  return characters.length <= INDEXED_WORD_LENGTH ? word : characters.slice(0, INDEXED_WORD_LENGTH).join('');
}

/**
 * The fields a posting copies that never change for a post: a list keeps or drops a match by them
 * before reading it. Not the tags nor the featured flag (a search tells a tag's list and the
 * featured posts by their entries, lib/lists/ranking.ts), nor `publish` (the draft mark tells it).
 */
const LISTED = ['author', 'author_id', 'created'] as const;

/** What the index knows of a post: from its text item (a stream image), the list fields, the searched text and the version. */
const INDEXED = ['id', ...LISTED, 'slug', 'publish', 'text_version', 'title', 'description', 'keywords', 'meta_description'] as const;
export type IndexedPost = Pick<PostText, (typeof INDEXED)[number]>;

/**
 * A posting as a list reads it: `slug` is where the post's items were when the posting was
 * written (read there first, and found through the post's `mine` entry when it moved since);
 * `publish` is false when the post has a draft mark (findPostings reads the marks beside the words).
 */
export type Posting = Pick<IndexedPost, (typeof LISTED)[number] | 'slug' | 'publish' | 'text_version'> & { post_id: string };

/**
 * The draft mark: an indexed term of every draft, which no word can be (words are letters and
 * digits), in a partition of its own (`WORD##`). Its postings are the site's drafts, read with a
 * search's words to keep drafts out of the lists that show published posts only.
 */
export const DRAFT_MARK = '#draft';

/** The post a text item image holds, or undefined for an image that is not one. */
export function indexedPost(image: Item | undefined): IndexedPost | undefined {
  if (!image || typeof image.id !== 'string' || typeof image.title !== 'string' || typeof image.description !== 'string') return undefined;
  const text = postTextFromItem(image);
  return Object.fromEntries(INDEXED.map((field) => [field, text[field]])) as IndexedPost;
}

/** The indexed words of a post: its distinct words, each cut to INDEXED_WORD_LENGTH. */
export function indexedWords(post: SearchableText): Set<string> {
  return new Set([...postWords(post)].map(indexedWord));
}

/**
 * Everything a post has a posting for: the draft mark while it is a draft (first, so that a new
 * draft's mark goes out before its words), and its indexed words.
 */
export function indexedTerms(post: IndexedPost): Set<string> {
  return new Set([...(post.publish ? [] : [DRAFT_MARK]), ...indexedWords(post)]);
}

function postingItem(post: IndexedPost, word: string): Item {
  return {
    ...keys.posting(word, post.id),
    post_id: post.id,
    slug: post.slug,
    ...Object.fromEntries(LISTED.map((name) => [name, post[name]])),
    text_version: post.text_version,
  };
}

/** A posting read back from the index; `drafts`: the ids of the posts with a draft mark. */
export function postingFromItem(item: Item, drafts: ReadonlySet<string>): Posting {
  return {
    post_id: String(item.post_id),
    slug: String(item.slug),
    author: String(item.author),
    author_id: Number(item.author_id),
    created: String(item.created),
    publish: !drafts.has(String(item.post_id)),
    text_version: Number(item.text_version ?? 0),
  };
}

/** The writes that take the index from a post's text `before` to `after` (either may be absent). */
export interface PostingChange {
  puts: Item[];
  /** The text the puts come from and their terms (undefined without puts). */
  written?: { post: IndexedPost; words: string[] };
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

/**
 * What a change of a text item does to the index. A new text writes the postings of the terms it
 * added and deletes those of the terms it dropped (all of them for a create; none for the new slug
 * of a rename, whose old slug's removal does it); a removed text (a deletion, or the old slug of a
 * rename) deletes its postings that are not newer than it. The slug a posting names is not
 * rewritten when only the slug changed, nor are postings for a publish (the draft mark comes or goes).
 */
export function postingChange(before: IndexedPost | undefined, after: IndexedPost | undefined): PostingChange {
  if (before && after && before.id !== after.id) {
    // Another post under the same key: the old one's postings go, the new one's all come.
    const removal = postingChange(before, undefined);
    return { ...postingChange(undefined, after), deletes: removal.deletes };
  }
  const old = before ? indexedTerms(before) : new Set<string>();
  if (!after)
    return { puts: [], deletes: [...old].map((word) => ({ key: keys.posting(word, before!.id), below: before!.text_version + 1 })), removed: before! };
  if (isMoved(before, after)) return { puts: [], deletes: [] };
  const now = indexedTerms(after);
  const words = [...now].filter((word) => !old.has(word));
  return {
    puts: words.map((word) => postingItem(after, word)),
    ...(words.length > 0 ? { written: { post: after, words } } : {}),
    deletes: before ? [...old].filter((word) => !now.has(word)).map((word) => ({ key: keys.posting(word, before.id), below: after.text_version })) : [],
  };
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

/** Puts of postings sent unconditioned: the text they come from and their words. */
type Written = NonNullable<PostingChange['written']>;

/**
 * Puts that went out unconditioned may have overwritten the postings of a newer text (whose
 * record was handled first: a rename's two items can sit in two shards) or put back words it
 * dropped. This brings those words to the post's current text: the ones it has are put again from
 * it (unconditioned as well, so checked in turn: the puts of the current text, or undefined when
 * the post is gone), the others deleted, conditioned on the version as usual.
 */
async function repairPuts({ post, words }: Written): Promise<Written | undefined> {
  const found = await currentText(post.id);
  if (found === undefined) throw new Error(`The text of post ${post.id} moved while it was read: the record is retried`);
  const current = found === 'gone' ? undefined : found;
  const now = current ? indexedTerms(current) : new Set<string>();
  const kept = words.filter((word) => now.has(word));
  await Promise.all([
    batchPut(
      kept.map((word) => postingItem(current!, word)),
      searchTableName(),
    ),
    conditionalWrites(
      words
        .filter((word) => !now.has(word))
        .map((word) => conditionalDelete({ key: keys.posting(word, post.id), below: current ? current.text_version : post.text_version + 1 })),
    ),
  ]);
  return current && kept.length > 0 ? { post: current, words: kept } : undefined;
}

/**
 * A removed text's writes, as the post now stands (its `mine` entry, read consistently, is there
 * exactly as long as the post): a post deleted for good has every posting deleted in batches,
 * unconditioned (its id is never used again, and a late put of it is repaired as any other); a
 * post renamed away from this slug is brought from the removed text to its current one, the
 * terms it gained put and the ones it lost deleted, conditioned as usual. A rename then costs the
 * words it changed, whatever the post's length.
 */
async function removal(
  removed: IndexedPost,
  deletes: PostingChange['deletes'],
): Promise<{ puts: Item[]; written?: Written; conditional: PostingChange['deletes']; unconditioned: Key[] }> {
  const current = await currentText(removed.id);
  if (current === 'gone') return { puts: [], conditional: [], unconditioned: deletes.map(({ key }) => key) };
  if (current === undefined) throw new Error(`The text of post ${removed.id} moved while it was read: the record is retried`);
  const now = indexedTerms(current);
  const kept = new Set([...now].map((word) => keyString(keys.posting(word, removed.id))));
  const had = indexedTerms(removed);
  const gained = [...now].filter((word) => !had.has(word));
  return {
    puts: gained.map((word) => postingItem(current, word)),
    ...(gained.length > 0 ? { written: { post: current, words: gained } } : {}),
    conditional: deletes.filter(({ key }) => !kept.has(keyString(key))),
    unconditioned: [],
  };
}

/**
 * Applies a change. The puts go out in batches (BatchWriteItem, 25 postings a call: a new post of
 * 1.5 KB has some 220 words), unconditioned, and are then checked against the post's current text
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
