import { keys } from '#lib/db/keys.ts';
import { partitionItemsAfter } from '#lib/db/query.ts';
import { tx, type TxWrite } from '#lib/db/transact.ts';
import { RetryableConflict } from '#lib/retry.ts';
import { commentFromItem, PREVIEW_REPLIES, promotionWrites, threadKeyOf, type CommentHead, type CommentRecord } from './comment.ts';

// What a reply's removal does to its thread: one less listed reply (on the thread's item and its
// head), the thread itself gone with its last reply when it is a placeholder, and, when the reply
// was one of the first ones, the next reply copied in its place. The thread's head is checked at
// the count and state read, so that of two changes of one thread's replies the second reads again.

/** The first replies of a thread, one more than the copies (strongly consistent): who takes a removed copy's place. */
export async function firstReplies(threadId: string): Promise<CommentRecord[]> {
  return (await partitionItemsAfter(keys.repliesOf(threadId), { limit: PREVIEW_REPLIES + 1 })).items.map(commentFromItem);
}

/**
 * The writes on the thread of `reply`, which is removed or stops being listed, as its thread's
 * head `thread` was read; `first`: the thread's first replies, read when `reply` is a copied one.
 */
export function replyRemovalWrites(reply: CommentRecord, thread: CommentHead, first: CommentRecord[]): TxWrite[] {
  const writes: TxWrite[] = [];
  const headKey = keys.commentHead(thread.id);
  const asRead = {
    expression: 'total_replies = :n AND #status = :s',
    names: { '#status': 'status' },
    values: { ':n': thread.total_replies, ':s': thread.status },
  };
  if (thread.status === 'deleted' && thread.total_replies === 1) {
    // A placeholder goes in the write that removes its last reply.
    writes.push({ write: tx.delete(threadKeyOf(reply), { expression: 'attribute_exists(PK)' }) }, { write: tx.delete(headKey, asRead) });
  } else {
    writes.push(
      { write: tx.update(threadKeyOf(reply), { expression: 'ADD total_replies :minus', values: { ':minus': -1 } }, { expression: 'attribute_exists(PK)' }) },
      { write: tx.update(headKey, { expression: 'ADD total_replies :minus', values: { ':minus': -1 } }, asRead) },
    );
  }
  if (!reply.preview) return writes;
  const at = first.findIndex((listed) => listed.id === reply.id);
  // The read of the first replies must agree with the head's flag, else a change came between them.
  if (at < 0 || at >= PREVIEW_REPLIES) throw new RetryableConflict(`reply ${reply.id} is not among the first replies read`);
  const next = first[PREVIEW_REPLIES];
  if (next) writes.push(...promotionWrites(next));
  return writes;
}
