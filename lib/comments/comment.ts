import { randomBytes } from 'node:crypto';
import type { Item } from '#lib/db/batch.ts';
import { keys, listPartitions, listSortKeys, type Key } from '#lib/db/keys.ts';
import { INDEXES } from '#lib/db/table.ts';
import { tx, type TxWrite } from '#lib/db/transact.ts';
import { isoTimestamp } from '#lib/time.ts';

// The comment entity (docs/data-model.md, Comments). A top-level comment (a thread) is an item of
// its post's threads partition, a reply an item of its thread's replies partition, both in the
// order of their sort key (`<created>#<id>`); each is listed by its author through GSI1. The first
// replies of a thread (PREVIEW_REPLIES of them) are also copied right after the thread in the
// threads partition, so that a page of threads with their first replies is one Query, whatever
// the number of replies. Each comment has a head keyed by its id alone: where the comment is, and
// the small state a write checks (status, its version, its thread's count, whether it is copied
// as a preview), so that a request naming a comment reads it with the token.

export const COMMENT_STATUSES = ['published', 'hidden', 'deleted'] as const;
export type CommentStatus = (typeof COMMENT_STATUSES)[number];
export const HIDERS = ['post_author', 'moderator', 'reports'] as const;
export type Hider = (typeof HIDERS)[number];

/** How many of a thread's first replies a page of threads shows with it. */
export const PREVIEW_REPLIES = 3;

/** A comment as the service works with it. */
export interface CommentRecord {
  id: string;
  post_id: string;
  /** A reply's thread (its top-level comment's id); null for a top-level comment. */
  thread: string | null;
  /** A reply's thread's sort key (where its preview copy goes); null for a top-level comment. */
  thread_sk: string | null;
  /** Its place: `<created>#<id>`. */
  sk: string;
  in_reply_to: string | null;
  author: string;
  author_id: number;
  body: string;
  created: string;
  modified: string;
  edited: boolean;
  status: CommentStatus;
  hidden_by: Hider | null;
  /** A thread's listed (published or hidden) replies; 0 for a reply. */
  total_replies: number;
  /** A reply among its thread's first PREVIEW_REPLIES: copied after the thread. */
  preview: boolean;
  /** Moved by every change of the comment itself (not of its thread's count): what a write is conditioned on, on the head. */
  version: number;
  /**
   * Someone reported it (lib/reports): its head says so, so that the table's stream consumer, told
   * of its removal, removes its reports too, and of no other comment's (infra/streams.ts).
   */
  reported?: boolean;
}

/** Random, 22 characters of `A–Z a–z 0–9 - _` (128 bits): never reused. */
export function newCommentId(): string {
  return randomBytes(16).toString('base64url');
}

const ID_PATTERN = /^[A-Za-z0-9_-]{22}$/;

/** Whether a path value could be a comment's (or a report's) id: anything else is a 404 without a read. */
export function isEntityId(value: string | undefined): value is string {
  return value !== undefined && ID_PATTERN.test(value);
}

/** The key of the comment's own item, in its thread's or its post's partition. */
export function commentKey(comment: Pick<CommentRecord, 'post_id' | 'thread' | 'sk'>): Key {
  return comment.thread === null ? keys.thread(comment.post_id, comment.sk) : keys.reply(comment.thread, comment.sk);
}

/** The key of a reply's preview copy. */
export function previewKey(reply: Pick<CommentRecord, 'post_id' | 'thread_sk' | 'sk'>): Key {
  return keys.replyPreview(reply.post_id, reply.thread_sk ?? '', reply.sk);
}

/** The head of a thread (its key): where a reply's thread counts its replies. */
export const threadHeadKey = (reply: Pick<CommentRecord, 'thread'>): Key => keys.commentHead(reply.thread ?? '');

/** The thread's own item, from a reply. */
export const threadKeyOf = (reply: Pick<CommentRecord, 'post_id' | 'thread' | 'thread_sk'>): Key => keys.thread(reply.post_id, reply.thread_sk ?? '');

const nullableString = (value: unknown) => (value === null || value === undefined ? null : String(value));

/** The comment an item of a partition holds (its own item, or a preview copy). */
export function commentFromItem(item: Item): CommentRecord {
  return {
    id: String(item.id),
    post_id: String(item.post_id),
    thread: nullableString(item.thread),
    thread_sk: nullableString(item.thread_sk),
    sk: String(item.sk),
    in_reply_to: nullableString(item.in_reply_to),
    author: String(item.author),
    author_id: Number(item.author_id),
    body: String(item.body ?? ''),
    created: String(item.created),
    modified: String(item.modified),
    edited: item.edited === true,
    status: (COMMENT_STATUSES as readonly string[]).includes(String(item.status)) ? (item.status as CommentStatus) : 'published',
    hidden_by: (HIDERS as readonly string[]).includes(String(item.hidden_by)) ? (item.hidden_by as Hider) : null,
    total_replies: Math.max(0, Number(item.total_replies ?? 0)),
    preview: item.preview === true,
    version: Number(item.version ?? 1),
  };
}

/** The comment read as its item with its head (which holds its version, its preview flag and its thread's count). */
export function commentFromItems(item: Item | undefined, head: Item | undefined): CommentRecord | undefined {
  if (!item || !head || head.id !== item.id) return undefined;
  const comment = commentFromItem(item);
  return {
    ...comment,
    version: Number(head.version ?? 1),
    preview: head.preview === true,
    total_replies: Math.max(0, Number(head.total_replies ?? 0)),
    ...(head.reported === true ? { reported: true } : {}),
  };
}

/** What a head says: enough to find the comment and to check a reply to it. */
export interface CommentHead {
  id: string;
  post_id: string;
  thread: string | null;
  thread_sk: string | null;
  sk: string;
  status: CommentStatus;
  total_replies: number;
  preview: boolean;
  version: number;
  /** A thread's newest reply's sort key: a new reply must sort after it. */
  last_reply: string | null;
}

export function headFromItem(item: Item | undefined): CommentHead | undefined {
  if (!item) return undefined;
  return {
    id: String(item.id),
    post_id: String(item.post_id),
    thread: nullableString(item.thread),
    thread_sk: nullableString(item.thread_sk),
    sk: String(item.sk),
    status: (COMMENT_STATUSES as readonly string[]).includes(String(item.status)) ? (item.status as CommentStatus) : 'published',
    total_replies: Math.max(0, Number(item.total_replies ?? 0)),
    preview: item.preview === true,
    version: Number(item.version ?? 1),
    last_reply: nullableString(item.last_reply),
  };
}

/** The fields every copy of a comment stores. */
function stored(comment: CommentRecord): Item {
  return {
    id: comment.id,
    post_id: comment.post_id,
    thread: comment.thread,
    thread_sk: comment.thread_sk,
    sk: comment.sk,
    in_reply_to: comment.in_reply_to,
    author: comment.author,
    author_id: comment.author_id,
    body: comment.body,
    created: comment.created,
    modified: comment.modified,
    edited: comment.edited,
    status: comment.status,
    hidden_by: comment.hidden_by,
    // The head's version when the item was last written: a promotion (promotionWrites) is conditioned on it.
    version: comment.version,
  };
}

/** A comment is in its author's list (GSI1) unless it is a placeholder. */
function listKeys(comment: CommentRecord): Item {
  return {
    [INDEXES.lists.partitionKey]: listPartitions.commentsOf(comment.author),
    [INDEXES.lists.sortKey]: listSortKeys.comment(comment.created, comment.id),
  };
}

function headItem(comment: CommentRecord): Item {
  return {
    ...keys.commentHead(comment.id),
    id: comment.id,
    post_id: comment.post_id,
    thread: comment.thread,
    thread_sk: comment.thread_sk,
    sk: comment.sk,
    status: comment.status,
    ...(comment.thread === null ? { total_replies: comment.total_replies } : { preview: comment.preview }),
    version: comment.version,
  };
}

function previewItem(reply: CommentRecord): Item {
  return { ...previewKey(reply), ...stored(reply) };
}

const absent = { expression: 'attribute_not_exists(PK)' };
const present = { expression: 'attribute_exists(PK)' };
const atVersion = (comment: CommentRecord) => ({ expression: 'version = :version', values: { ':version': comment.version } });

/**
 * The condition on a comment's head for a change from `before` to `after`: the version read; and
 * for a thread that goes, that it has no replies, or one kept as a placeholder, that it has some
 * (a reply may have come or gone since the read: the change then starts again from its reads).
 */
function headCondition(before: CommentRecord, after: CommentRecord | null) {
  if (before.thread !== null || (after && after.status !== 'deleted')) return atVersion(before);
  return after
    ? { expression: 'version = :version AND total_replies > :zero', values: { ':version': before.version, ':zero': 0 } }
    : {
        expression: 'version = :version AND (attribute_not_exists(total_replies) OR total_replies = :zero)',
        values: { ':version': before.version, ':zero': 0 },
      };
}

/** A new comment: its item, its head and, for one of its thread's first replies, its preview copy. */
export function newCommentWrites(comment: CommentRecord): TxWrite[] {
  const item = { ...commentKey(comment), ...stored(comment), ...(comment.thread === null ? { total_replies: 0 } : {}), ...listKeys(comment) };
  return [{ write: tx.put(item, absent) }, { write: tx.put(headItem(comment), absent) }, ...(comment.preview ? [{ write: tx.put(previewItem(comment)) }] : [])];
}

/**
 * The writes that take a stored comment from `before` to `after` (null: gone), conditioned on the
 * version its head had when read. The item is updated, not replaced, so that a thread's count,
 * which its replies change with ADD, is never overwritten; a preview copy follows its reply.
 * `unchangedSince`: the item's `modified` must still be this (an edit based on what a client read).
 */
export function commentChangeWrites(
  before: CommentRecord,
  after: CommentRecord | null,
  unchangedSince?: { modified: string; onChanged: () => Error },
): TxWrite[] {
  if (!after) {
    return [
      { write: tx.delete(commentKey(before), present) },
      { write: tx.delete(keys.commentHead(before.id), headCondition(before, null)) },
      ...(before.preview ? [{ write: tx.delete(previewKey(before)) }] : []),
    ];
  }
  const listed = after.status !== 'deleted';
  const values: Record<string, unknown> = {
    ':body': after.body,
    ':modified': after.modified,
    ':edited': after.edited,
    ':status': after.status,
    ':hidden_by': after.hidden_by,
    ':next': before.version + 1,
    ...(listed ? { ':list': listPartitions.commentsOf(after.author), ':listed': listSortKeys.comment(after.created, after.id) } : {}),
  };
  const names: Record<string, string> = { '#status': 'status', '#modified': 'modified', '#lpk': INDEXES.lists.partitionKey, '#lsk': INDEXES.lists.sortKey };
  const expression = `SET body = :body, #modified = :modified, edited = :edited, #status = :status, hidden_by = :hidden_by, version = :next${
    listed ? ', #lpk = :list, #lsk = :listed' : ' REMOVE #lpk, #lsk'
  }`;
  const itemCondition = unchangedSince
    ? {
        expression: 'attribute_exists(PK) AND #modified = :read_modified',
        names: { '#modified': 'modified' },
        values: { ':read_modified': unchangedSince.modified },
      }
    : present;
  return [
    {
      write: tx.update(commentKey(after), { expression, names, values }, itemCondition),
      ...(unchangedSince ? { onConditionFailed: unchangedSince.onChanged } : {}),
    },
    {
      write: tx.update(
        keys.commentHead(after.id),
        {
          expression: 'SET #status = :status, version = :next',
          names: { '#status': 'status' },
          values: { ':status': after.status, ':next': before.version + 1 },
        },
        headCondition(before, after),
      ),
    },
    ...(after.preview ? [{ write: tx.put(previewItem(after)) }] : []),
  ];
}

/**
 * A reply that becomes one of its thread's first replies (another before it was deleted): its
 * preview copy, from its item as read, and its head's flag, conditioned on the version of that
 * item (a reply not yet copied has its head's version on its item: every other write sets both).
 */
export function promotionWrites(reply: CommentRecord): TxWrite[] {
  const promoted = { ...reply, preview: true };
  return [
    { write: tx.put(previewItem(promoted)) },
    {
      write: tx.update(
        keys.commentHead(reply.id),
        { expression: 'SET preview = :true, version = :next', values: { ':true': true, ':next': reply.version + 1 } },
        atVersion(reply),
      ),
    },
  ];
}

/** Marks a comment reported on its head, leaving its version: its writes do not conflict with a report's. */
export function reportedWrite(comment: Pick<CommentRecord, 'id'>): TxWrite {
  return {
    write: tx.update(keys.commentHead(comment.id), { expression: 'SET reported = :true', values: { ':true': true } }, { expression: 'attribute_exists(PK)' }),
  };
}

/** The timestamp of a sort key (`<created>#<id>`). */
const createdOf = (sortKey: string) => sortKey.slice(0, sortKey.lastIndexOf('#'));

/** Microseconds since the epoch of an ISO timestamp with microseconds (lib/time.ts isoTimestamp). */
function microsOf(iso: string): number {
  const match = /\.(\d{6})\+00:00$/.exec(iso);
  return Date.parse(iso) * 1000 + (match ? Number(match[1]) % 1000 : 0);
}

/**
 * The creation time of a comment that must sort after `after` (the newest sort key of its
 * partition, if any): now, or just past it when a clock or a concurrent comment is ahead.
 */
export function creationTime(after: string | null | undefined): string {
  const now = isoTimestamp();
  if (!after) return now;
  const floor = microsOf(createdOf(after)) + 1;
  return microsOf(now) >= floor ? now : isoTimestamp(floor);
}
