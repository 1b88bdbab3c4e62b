import type { Caller } from '#lib/auth/tokens.ts';
import { batchGet, type BatchResult } from '#lib/db/batch.ts';
import { keys } from '#lib/db/keys.ts';
import { NotFound } from '#lib/errors.ts';
import { listParams } from '#lib/lists/list.ts';
import { pageOfRead, parsePageRequest, type ListedPage } from '#lib/pager.ts';
import { commentedPostFromEntry, postByIdKey, readableComments, type CommentedPost } from '#lib/posts/comment-target.ts';
import type { Input } from '#lib/validation.ts';
import { commentFromItem, headFromItem, isEntityId, type CommentRecord } from './comment.ts';
import { COMMENT_PAGE_SIZES, cursorAfter, pageStart, readAfter, type PartitionList } from './pages.ts';

// GET /comments/detail/{id}/replies: a thread's replies, oldest first, with X-Total-Count the
// thread's count of them. Two round trips: the token and the thread's head (which counts its
// replies) in one read; then the page of the thread's replies partition and, beside it, its post
// (found by id: whether the caller may see its comments, and its slug now).

const PARAMS = ['page', 'page_size', 'cursor'] as const;

export interface RepliesPage {
  post: CommentedPost;
  listed: ListedPage<CommentRecord>;
}

export async function repliesPage(
  caller: Caller | null,
  id: string | undefined,
  read: BatchResult,
  query: Record<string, string | undefined>,
  body: Input,
): Promise<RepliesPage> {
  const head = isEntityId(id) ? headFromItem(read.get(keys.commentHead(id))) : undefined;
  if (!head || head.thread !== null) throw new NotFound();
  const params = listParams(query, body, PARAMS);
  const list: PartitionList = { name: 'replies', partition: keys.repliesOf(head.id) };
  // The page is read beside the post; a page that is none is answered after the post's 404.
  const paged = (async () => {
    const request = parsePageRequest(params, COMMENT_PAGE_SIZES.replies);
    const after = await pageStart(list, request, () => true);
    return { request, items: await readAfter(list.partition, after, request.pageSize + 1, () => false) };
  })();
  paged.catch(() => undefined);
  const post = readableComments(commentedPostFromEntry((await batchGet([postByIdKey(head.post_id)])).get(postByIdKey(head.post_id))), caller);
  const { request, items } = await paged;
  const replies = items.map(commentFromItem);
  return {
    post,
    listed: {
      params,
      request,
      page: pageOfRead(
        request,
        replies,
        (reply) => cursorAfter(list, reply.sk),
        (reply) => reply,
      ),
      total: head.total_replies,
    },
  };
}
