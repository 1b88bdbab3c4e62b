import { batchDelete } from '#lib/db/batch.ts';
import { isThreadSortKey, keyOf, keys, type Key } from '#lib/db/keys.ts';
import { partitionPages } from '#lib/db/query.ts';
import { SORT_KEY } from '#lib/db/table.ts';

// After a post's deletion (lib/reactions/post-removal.ts): its comments, which may be too many for
// any transaction, go with it: each thread's replies (items and heads), then the threads, their
// copies of first replies and their heads. Until then nothing reads them: their post is gone, and
// every read of a comment reads its post. Idempotent: a record delivered again finds less or nothing.

/** Removes every comment of the post `postId`. */
export async function removeComments(postId: string): Promise<void> {
  for await (const items of partitionPages(keys.threadsOf(postId), { attributes: ['PK', SORT_KEY, 'id'], consistent: true })) {
    const threads = items.filter((item) => isThreadSortKey(String(item[SORT_KEY])));
    for (const thread of threads) await removeReplies(String(thread.id));
    const gone: Key[] = [...items.map(keyOf), ...threads.map((thread) => keys.commentHead(String(thread.id)))];
    await batchDelete(gone);
  }
}

async function removeReplies(threadId: string): Promise<void> {
  for await (const replies of partitionPages(keys.repliesOf(threadId), { attributes: ['PK', SORT_KEY, 'id'], consistent: true })) {
    await batchDelete([...replies.map(keyOf), ...replies.map((reply) => keys.commentHead(String(reply.id)))]);
  }
}
