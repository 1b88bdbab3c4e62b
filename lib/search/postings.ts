import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { tableName } from '#lib/config.ts';
import type { Item } from '#lib/db/batch.ts';
import { db } from '#lib/db/client.ts';
import { keys, type Key } from '#lib/db/keys.ts';
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

/** The fields a posting copies: a change of one of them rewrites every posting of the post. */
const LISTED = ['slug', 'author', 'author_id', 'created', 'publish', 'is_featured', 'tag_slugs'] as const;

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
    is_featured: item.is_featured === true,
    tag_slugs: Array.isArray(item.tag_slugs) ? item.tag_slugs.map(String) : [],
    text_version: Number(item.text_version ?? 0),
  };
}

/** The writes that take the index from a post's text `before` to `after` (either may be absent). */
export interface PostingChange {
  puts: Item[];
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
    return { puts: postingChange(undefined, after).puts, deletes: removal.deletes };
  }
  const old = before ? indexedWords(before) : new Set<string>();
  if (!after) return { puts: [], deletes: [...old].map((word) => ({ key: keys.posting(word, before!.id), below: before!.text_version + 1 })) };
  const now = indexedWords(after);
  const rewriteAll = !before || LISTED.some((name) => JSON.stringify(before[name]) !== JSON.stringify(after[name]));
  return {
    puts: [...now].filter((word) => rewriteAll || !old.has(word)).map((word) => postingItem(after, word)),
    deletes: before ? [...old].filter((word) => !now.has(word)).map((word) => ({ key: keys.posting(word, before.id), below: after.text_version })) : [],
  };
}

/** Single-item writes in flight at once per change: a large post has thousands of words. */
const WRITES_IN_FLIGHT = 16;

const isConditionFailure = (error: unknown) => (error as { name?: string }).name === 'ConditionalCheckFailedException';

/**
 * Applies a change, each write conditioned on the version of what it replaces; a failed condition
 * means a newer text got there first, and is not an error. Idempotent: applied again, it leaves the
 * index as it is. Throws on any other failure (the stream record is then retried).
 */
export async function applyPostingChange(change: PostingChange): Promise<void> {
  const writes: (() => Promise<unknown>)[] = [
    ...change.puts.map((item) => () =>
      db().send(
        new PutCommand({
          TableName: tableName(),
          Item: item,
          ConditionExpression: 'attribute_not_exists(PK) OR text_version < :v',
          ExpressionAttributeValues: { ':v': item.text_version },
        }),
      ),
    ),
    ...change.deletes.map(({ key, below }) => () =>
      db().send(
        new DeleteCommand({
          TableName: tableName(),
          Key: key,
          ConditionExpression: 'text_version < :below',
          ExpressionAttributeValues: { ':below': below },
        }),
      ),
    ),
  ];
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
