import type { Caller } from '#lib/auth/tokens.ts';
import type { BatchResult, Item } from '#lib/db/batch.ts';
import { afterThread, isThreadSortKey, keys } from '#lib/db/keys.ts';
import { SORT_KEY } from '#lib/db/table.ts';
import { pageOfRead, parsePageRequest, type ListedPage } from '#lib/pager.ts';
import { commentedPost, readableComments, type CommentedPost } from '#lib/posts/comment-target.ts';
import { postFromRead } from '#lib/posts/post.ts';
import type { Input } from '#lib/validation.ts';
import { listParams } from '#lib/lists/list.ts';
import { commentFromItem, PREVIEW_REPLIES, type CommentRecord } from './comment.ts';
import { COMMENT_PAGE_SIZES, cursorAfter, pageStart, readAfter, type PartitionList } from './pages.ts';

// GET /posts/detail/{slug}/comments: the post's threads, oldest first, each with its first
// replies. Two round trips: the token and the post in one read, then one Query of the post's
// threads partition, where each thread is followed by the copies of its first replies
// (lib/comments/comment.ts): a page of n threads reads at most n × (1 + PREVIEW_REPLIES) + 1
// items, whatever the number of comments the post or a thread has.

const PARAMS = ['page', 'page_size', 'cursor'] as const;

export interface Thread {
  thread: CommentRecord;
  replies: CommentRecord[];
}

export interface ThreadsPage {
  post: CommentedPost;
  listed: ListedPage<Thread>;
}

/** The threads in the items of a threads partition (each thread's copies follow it), in order. */
function threadsOf(items: Item[]): Thread[] {
  const threads: Thread[] = [];
  for (const item of items) {
    const comment = commentFromItem(item);
    if (isThreadSortKey(String(item[SORT_KEY]))) threads.push({ thread: comment, replies: [] });
    else threads.at(-1)?.replies.push(comment);
  }
  return threads;
}

export async function threadsPage(
  caller: Caller | null,
  slug: string,
  read: BatchResult,
  query: Record<string, string | undefined>,
  body: Input,
): Promise<ThreadsPage> {
  const stored = postFromRead(read, slug);
  const post = readableComments(stored && commentedPost(stored), caller);
  const params = listParams(query, body, PARAMS);
  const request = parsePageRequest(params, COMMENT_PAGE_SIZES.threads);
  const list: PartitionList = { name: 'threads', partition: keys.threadsOf(post.id) };
  const after = await pageStart(list, request, isThreadSortKey);
  // One item past the page: the next thread's, after this page's threads and their copies.
  const limit = request.pageSize * (1 + PREVIEW_REPLIES) + 1;
  const items = await readAfter(
    list.partition,
    after === undefined ? undefined : afterThread(after),
    limit,
    (read) => threadsOf(read).length > request.pageSize,
  );
  const threads = threadsOf(items);
  return {
    post,
    listed: {
      params,
      request,
      page: pageOfRead(
        request,
        threads,
        ({ thread }) => cursorAfter(list, thread.sk),
        (thread) => thread,
      ),
    },
  };
}
