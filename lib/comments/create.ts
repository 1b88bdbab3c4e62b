import { tokenStillValid, type Caller } from '#lib/auth/tokens.ts';
import { batchGet, type BatchResult } from '#lib/db/batch.ts';
import { keys, listSortKeys, type Key } from '#lib/db/keys.ts';
import { transactWrite, tx, type TxWrite } from '#lib/db/transact.ts';
import { PermissionDenied, ValidationError } from '#lib/errors.ts';
import { commentCountWrite, commentedPost, LOCKED_COMMENTS, stillCommentable, writableComments, type CommentedPost } from '#lib/posts/comment-target.ts';
import { postFromRead, postKeys } from '#lib/posts/post.ts';
import { withRetries } from '#lib/retry.ts';
import { couldBeSlug } from '#lib/slugs/rules.ts';
import { creationTime, headFromItem, newCommentId, newCommentWrites, PREVIEW_REPLIES, threadKeyOf, type CommentHead, type CommentRecord } from './comment.ts';
import { NO_SUCH_PARENT, NOT_REPLIABLE, type CommentCreate } from './input.ts';
import { commentRateWrites } from './rate-limit.ts';

// POST /posts/detail/{slug}/comments (docs/api.md, Comments): a top-level comment, or a reply to
// one of the post's published comments. Two round trips: the token, the post and the comment
// answered (its head) in one read, then one transaction that stores the comment, counts it on the
// post (and its thread) with ADD, checks the post is still open, the parent still published and
// the caller's token still valid, and counts it against the caller's rate limits.

/** What the create reads with the token: the post and the head of the comment answered; nothing for a slug that cannot exist. */
export function createCommentReads(slug: string, input: CommentCreate): Key[] {
  if (!couldBeSlug(slug)) return [];
  const parent = input.parent !== null && input.parent !== 'invalid' ? [keys.commentHead(input.parent)] : [];
  return [...postKeys(slug), ...parent];
}

export interface Created {
  comment: CommentRecord;
  post: CommentedPost;
}

/**
 * A reply's parent as read: its thread (itself when top-level) and, where the read holds it, the
 * thread's head, which says how many replies it lists and which is its newest.
 */
interface ReplyTarget {
  parent: CommentHead;
  threadId: string;
  threadSk: string;
  threadHead?: CommentHead;
}

function replyTarget(read: BatchResult, post: CommentedPost, parentId: string): ReplyTarget {
  const parent = headFromItem(read.get(keys.commentHead(parentId)));
  if (!parent || parent.post_id !== post.id) throw new ValidationError({ parent: [NO_SUCH_PARENT] });
  if (parent.status !== 'published') throw new ValidationError({ parent: [NOT_REPLIABLE] });
  const threadId = parent.thread ?? parent.id;
  const threadHead = parent.thread === null ? parent : headFromItem(read.get(keys.commentHead(threadId)));
  return { parent, threadId, threadSk: parent.thread_sk ?? parent.sk, ...(threadHead ? { threadHead } : {}) };
}

/**
 * Whether the new reply is one of its thread's first replies (and so copied after the thread).
 * Without the thread's head in the read (a reply to a reply, first attempt), a parent that is not
 * among the first replies shows that the thread has more, and one that is makes a guess: the
 * transaction's condition on the thread's count decides, and a wrong guess reads again.
 */
function isPreview(target: ReplyTarget): boolean {
  if (target.threadHead) return target.threadHead.total_replies < PREVIEW_REPLIES;
  return false;
}

/** The reply's thread counts it: its item, and its head, on condition that the count still calls for the copies made and that the reply sorts last. */
function threadCountWrites(target: ReplyTarget, reply: CommentRecord): TxWrite[] {
  const answersThread = target.parent.thread === null;
  const condition = [
    'attribute_exists(PK)',
    '(attribute_not_exists(last_reply) OR last_reply < :sk)',
    reply.preview ? 'total_replies < :preview' : 'total_replies >= :preview',
    ...(answersThread ? ['#status = :published'] : []),
  ].join(' AND ');
  return [
    { write: tx.update(threadKeyOf(reply), { expression: 'ADD total_replies :one', values: { ':one': 1 } }, { expression: 'attribute_exists(PK)' }) },
    {
      write: tx.update(
        keys.commentHead(target.threadId),
        { expression: 'ADD total_replies :one SET last_reply = :sk', values: { ':one': 1, ':sk': reply.sk } },
        {
          expression: condition,
          ...(answersThread ? { names: { '#status': 'status' } } : {}),
          values: { ':preview': PREVIEW_REPLIES, ...(answersThread ? { ':published': 'published' } : {}) },
        },
      ),
    },
    // A reply to a reply: that one must still be published.
    ...(answersThread
      ? []
      : [
          {
            write: tx.check(keys.commentHead(target.parent.id), {
              expression: '#status = :published',
              names: { '#status': 'status' },
              values: { ':published': 'published' },
            }),
          },
        ]),
  ];
}

export function createComment(caller: Caller, slug: string, input: CommentCreate, read: BatchResult): Promise<Created> {
  // A later attempt also reads the head of the thread a reply to a reply goes into.
  let threadHead: Key | undefined;
  return withRetries(async (attempt) => {
    const current = attempt === 1 ? read : await batchGet([...read.keys, ...(threadHead ? [threadHead] : [])]);
    const stored = postFromRead(current, slug);
    const post = writableComments(stored && commentedPost(stored), caller);
    if (post.locked) throw new PermissionDenied(LOCKED_COMMENTS);
    if (Array.isArray(input.body)) throw new ValidationError({ body: input.body });
    if (input.parent === 'invalid') throw new ValidationError({ parent: [NO_SUCH_PARENT] });
    const target = input.parent === null ? undefined : replyTarget(current, post, input.parent);
    if (target) threadHead = keys.commentHead(target.threadId);
    const id = newCommentId();
    const created = creationTime(target ? (target.threadHead?.last_reply ?? null) : stored!.last_thread);
    const comment: CommentRecord = {
      id,
      post_id: post.id,
      thread: target ? target.threadId : null,
      thread_sk: target ? target.threadSk : null,
      sk: listSortKeys.comment(created, id),
      in_reply_to: target ? target.parent.id : null,
      author: caller.username,
      author_id: caller.userId,
      body: input.body,
      created,
      modified: created,
      edited: false,
      status: 'published',
      hidden_by: null,
      total_replies: 0,
      preview: target ? isPreview(target) : false,
      version: 1,
    };
    await transactWrite([
      tokenStillValid(caller),
      stillCommentable(post.id, { unlocked: true }),
      commentCountWrite(post, 1, target ? undefined : comment.sk),
      ...newCommentWrites(comment),
      ...(target ? threadCountWrites(target, comment) : []),
      ...commentRateWrites(caller),
    ]);
    return { comment, post };
  });
}
