import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { searchTableName } from '#lib/config.ts';
import { batchDelete, batchGet, batchPut, type Item } from '#lib/db/batch.ts';
import { db } from '#lib/db/client.ts';
import { keys, keyString, postLists, type Key } from '#lib/db/keys.ts';
import { postTextFromItem, type PostText } from '#lib/posts/post.ts';
import { postWords, type SearchableText } from './words.ts';

// The posting entity: the search index, one item per (word, post), kept by the table's stream
// consumer (indexing.ts) from the post's text item. A posting carries what a list needs to keep or
// drop the post without reading it (the list fields of postings.LISTED) and `text_version`, the
// version of the text it was written from: every write is conditioned on it, so that records of
// one post handled in any order (a rename's insert and remove are two items, so two shards)
// never put back what a newer text dropped.

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
 * The fields a posting copies: a change of one of them rewrites every posting of the post. Not the
 * tags nor the featured flag: a search tells a tag's list and the featured posts by their entries
 * (lib/lists/ranking.ts), so that retagging or featuring a post writes no posting.
 */
const LISTED = ['slug', 'author', 'author_id', 'created', 'publish'] as const;

/** What the index knows of a post: from its text item (a stream image), the list fields, the searched text and the version. */
const INDEXED = ['id', ...LISTED, 'text_version', 'title', 'description', 'keywords', 'meta_description'] as const;
export type IndexedPost = Pick<PostText, (typeof INDEXED)[number]>;

/** A posting as a list reads it. */
export type Posting = Pick<IndexedPost, (typeof LISTED)[number] | 'text_version'> & { post_id: string };

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

function postingItem(post: IndexedPost, word: string): Item {
  return {
    ...keys.posting(word, post.id),
    post_id: post.id,
    ...Object.fromEntries(LISTED.map((name) => [name, post[name]])),
    text_version: post.text_version,
  };
}

/** A posting read back from the index. */
export function postingFromItem(item: Item): Posting {
  return {
    post_id: String(item.post_id),
    slug: String(item.slug),
    author: String(item.author),
    author_id: Number(item.author_id),
    created: String(item.created),
    publish: item.publish === true,
    text_version: Number(item.text_version ?? 0),
  };
}

/** The writes that take the index from a post's text `before` to `after` (either may be absent). */
export interface PostingChange {
  puts: Item[];
  /** The text the puts come from and their words (undefined without puts). */
  written?: { post: IndexedPost; words: string[] };
  /** A text removed with no text after it under its key: a deletion, or the old slug of a rename. */
  removed?: IndexedPost;
  /** Postings to delete if they were written before version `below`. */
  deletes: { key: Key; below: number }[];
}

/**
 * What a change of a text item does to the index. A new text writes the postings of the words it
 * added (all of them when a listed field changed, so that every posting says the same) and deletes
 * those of the words it dropped; a removed text (a deletion, or the old slug of a rename) deletes
 * its postings that are not newer than it.
 */
export function postingChange(before: IndexedPost | undefined, after: IndexedPost | undefined): PostingChange {
  if (before && after && before.id !== after.id) {
    // Another post under the same key: the old one's postings go, the new one's all come.
    const removal = postingChange(before, undefined);
    return { ...postingChange(undefined, after), deletes: removal.deletes };
  }
  const old = before ? indexedWords(before) : new Set<string>();
  if (!after) return { puts: [], deletes: [...old].map((word) => ({ key: keys.posting(word, before!.id), below: before!.text_version + 1 })), removed: before! };
  const now = indexedWords(after);
  const rewriteAll = !before || LISTED.some((name) => JSON.stringify(before[name]) !== JSON.stringify(after[name]));
  const words = [...now].filter((word) => rewriteAll || !old.has(word));
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

const conditionalDelete = ({ key, below }: PostingChange['deletes'][number]) => () =>
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
  const now = current ? indexedWords(current) : new Set<string>();
  const kept = words.filter((word) => now.has(word));
  await Promise.all([
    batchPut(
      kept.map((word) => postingItem(current!, word)),
      searchTableName(),
    ),
    conditionalWrites(
      words.filter((word) => !now.has(word)).map((word) => conditionalDelete({ key: keys.posting(word, post.id), below: current ? current.text_version : post.text_version + 1 })),
    ),
  ]);
  return current && kept.length > 0 ? { post: current, words: kept } : undefined;
}

/**
 * The deletes of a removed text, as the post now stands (its `mine` entry, read consistently, is
 * there exactly as long as the post): a post deleted for good has every posting deleted in
 * batches, unconditioned (its id is never used again, and a late put of it is repaired as any
 * other); a post renamed away from this slug keeps the words its current text has, so only the
 * others are deleted, conditioned as usual. A rename then costs the words it changed, not two
 * writes a word.
 */
async function removalDeletes(removed: IndexedPost, deletes: PostingChange['deletes']): Promise<{ conditional: PostingChange['deletes']; unconditioned: Key[] }> {
  const current = await currentText(removed.id);
  if (current === 'gone') return { conditional: [], unconditioned: deletes.map(({ key }) => key) };
  if (current === undefined) return { conditional: deletes, unconditioned: [] };
  const kept = new Set([...indexedWords(current)].map((word) => keyString(keys.posting(word, removed.id))));
  return { conditional: deletes.filter(({ key }) => !kept.has(keyString(key))), unconditioned: [] };
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
  const deletes = change.removed ? await removalDeletes(change.removed, change.deletes) : { conditional: change.deletes, unconditioned: [] };
  await Promise.all([
    batchPut(change.puts, searchTableName()),
    batchDelete(deletes.unconditioned, searchTableName()),
    conditionalWrites(deletes.conditional.map(conditionalDelete)),
  ]);
  for (let written = change.written; written && !(await stillCurrent(written.post)); ) written = await repairPuts(written);
}
