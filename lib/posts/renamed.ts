import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { tableName } from '#lib/config.ts';
import { db } from '#lib/db/client.ts';
import { keys, postLists, type Key } from '#lib/db/keys.ts';
import type { TxWrite } from '#lib/db/transact.ts';
import { tx } from '#lib/db/transact.ts';
import { couldBeSlug } from '#lib/slugs/rules.ts';
import { isoTimestamp } from '#lib/time.ts';
import type { PostRecord } from './post.ts';

// Renamed posts (spec site-pages §4): each rename records, beside the slug the post leaves
// (`POST#<old slug>` / `LEFT`), the post's id. The record is found by the slug alone, and the post
// by its id alone through its `mine` entry (which lives exactly as long as the post and carries
// its current slug and `publish`): two reads, no text read, whatever the number of renames.

/** Where a slug that no post holds sends a reader: to a published post that left it by a rename, or nowhere (404). */
export type RenamedTarget = { kind: 'moved'; slug: string } | { kind: 'gone' };

const GONE: RenamedTarget = { kind: 'gone' };

/** The put of the record that `post` (as it was before the rename) left its slug: joins the rename's transaction. */
export function slugLeftWrite(before: PostRecord): TxWrite {
  return { write: tx.put({ ...keys.slugLeft(before.slug), post_id: before.id, left_at: isoTimestamp() }) };
}

/**
 * The delete of a slug's rename record, in the transaction of the delete of the post holding the
 * slug: the slug is then freed by a delete, which no older rename's redirect outlives (§4, rule 4).
 */
export function slugLeftClear(slug: string): TxWrite {
  return { write: tx.delete(keys.slugLeft(slug)) };
}

async function getItem(key: Key): Promise<Record<string, unknown> | undefined> {
  const response = await db().send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true }));
  return response.Item;
}

/** The id of the post that last left `slug` by a rename (whether or not it still exists), or undefined. One GetItem. */
export async function slugLeftBy(slug: string): Promise<string | undefined> {
  if (!couldBeSlug(slug)) return undefined;
  const record = await getItem(keys.slugLeft(slug));
  return typeof record?.post_id === 'string' ? record.post_id : undefined;
}

/**
 * Where `/posts/{slug}` sends a reader when no post holds `slug` (the caller has looked first: a
 * taken slug is its holder's, and this is not called). `moved` to the current slug of the post that
 * last left `slug` by a rename when that post exists and is published (one hop: its current slug,
 * read now); `gone` when it is a draft or deleted, when no rename left the slug, or for a value
 * that cannot be a slug. Two sequential GetItems (the record, then the post's `mine` entry),
 * strongly consistent, about 1 RCU each.
 */
export async function renamedTarget(slug: string): Promise<RenamedTarget> {
  const postId = await slugLeftBy(slug);
  if (postId === undefined) return GONE;
  const entry = await getItem(keys.postEntry(postId, postLists.mine));
  if (!entry || entry.publish !== true || typeof entry.slug !== 'string') return GONE;
  // The post came back to this slug after the caller looked: no redirect to itself (a loop); the
  // next request finds it.
  if (entry.slug === slug) return GONE;
  return { kind: 'moved', slug: entry.slug };
}
