import { requireModerator } from '#lib/auth/moderators.ts';
import { tokenStillValid, type Caller } from '#lib/auth/tokens.ts';
import { commentChangeWrites, commentFromItems, commentKey, type CommentRecord } from '#lib/comments/comment.ts';
import { batchGet, readForAttempt, type BatchResult } from '#lib/db/batch.ts';
import { keys, type Key } from '#lib/db/keys.ts';
import { transactWrite, type TxWrite } from '#lib/db/transact.ts';
import { Conflict, NotFound, ValidationError } from '#lib/errors.ts';
import { isEntityId } from '#lib/comments/comment.ts';
import { commentCountWrite, commentedPostFromEntry, postByIdKey, type CommentedPost } from '#lib/posts/comment-target.ts';
import { commitPostChange } from '#lib/posts/changes.ts';
import { postKeys, postToChange, type PostRecord } from '#lib/posts/post.ts';
import { summaryOf } from '#lib/posts/summarize.ts';
import { withRetries } from '#lib/retry.ts';
import { isoTimestamp } from '#lib/time.ts';
import type { Input } from '#lib/validation.ts';
import { parseResolve, type ResolveAction } from './input.ts';
import {
  reportFromItem,
  reportKey,
  resolveWrite,
  targetFromItem,
  targetKey,
  targetStateFromItem,
  type ReportRecord,
  type ReportTarget,
  type ResolutionRecord,
  type TargetState,
} from './report.ts';
import { commentTargetToApi, postTargetToApi, reportToApi, type ApiReportTarget } from './view.ts';

// POST /reports/detail/{id}/resolve (docs/api.md, Reports): a moderator closes every open report
// of the report's target. `dismiss` shows again a comment its reports hid; `remove` hides a
// comment (as a moderator) or unpublishes a post and marks it removed (its author cannot publish
// it until `npm run admin -- restore-post`). Three round trips: the token and the report's head;
// the report, its target's item and the target itself; one transaction.

export const ALREADY_RESOLVED = 'This report is already resolved.';

/** What resolve reads with the token: the report's head, unless the path value can be no id. */
export const resolveReads = (id: string | undefined): Key[] => (isEntityId(id) ? [keys.reportHead(id)] : []);

/** The keys of a target's own state: a post's text and stats (where it was reported) and its entry; a comment's item, head and post's entry. */
function targetReads(target: ReportTarget): Key[] {
  if (!target.comment) return [...postKeys(target.slug), postByIdKey(target.postId)];
  const at = { post_id: target.postId, thread: target.comment.thread, sk: target.comment.sk };
  return [commentKey(at), keys.commentHead(target.comment.id), postByIdKey(target.postId)];
}

/** The post a report is about, read where it was reported, or where its entry says it is now (renamed since). */
async function reportedPost(target: ReportTarget, read: BatchResult): Promise<PostRecord> {
  const post = postToChange(read, target.slug);
  if (post?.id === target.postId) return post;
  const entry = read.get(postByIdKey(target.postId));
  if (!entry) throw new NotFound();
  const moved = postToChange(await batchGet(postKeys(String(entry.slug))), String(entry.slug));
  if (moved?.id !== target.postId) throw new NotFound();
  return moved;
}

interface Outcome {
  writes: TxWrite[];
  shown: ApiReportTarget;
  /** A post's change, committed with the writes (commitPostChange). */
  post?: { before: PostRecord; after: PostRecord };
}

function commentOutcome(caller: Caller, comment: CommentRecord, post: CommentedPost, action: ResolveAction): Outcome {
  let after = comment;
  if (action === 'dismiss' && comment.status === 'hidden' && comment.hidden_by === 'reports') after = { ...comment, status: 'published', hidden_by: null };
  if (action === 'remove' && (comment.status === 'published' || comment.hidden_by !== 'moderator'))
    after = { ...comment, status: 'hidden', hidden_by: 'moderator' };
  const delta = (after.status === 'published' ? 1 : 0) - (comment.status === 'published' ? 1 : 0);
  return {
    writes: after === comment ? [] : [...commentChangeWrites(comment, after), ...(delta !== 0 ? [commentCountWrite(post, delta)] : [])],
    shown: commentTargetToApi(after, post, caller),
  };
}

function postOutcome(post: PostRecord, action: ResolveAction): Outcome {
  if (action === 'dismiss') return { writes: [], shown: postTargetToApi(post) };
  // Unpublished and marked, `modified` kept: a moderator's act is no edit of the post.
  const after = { ...post, publish: false, removed: true, version: post.version + 1 };
  return { writes: [], shown: postTargetToApi(after), post: { before: post, after } };
}

export function resolveReport(caller: Caller, id: string | undefined, input: Input, read: BatchResult) {
  requireModerator(caller);
  return withRetries(async (attempt) => {
    const first = await readForAttempt(attempt, read);
    const head = isEntityId(id) ? first.get(keys.reportHead(id)) : undefined;
    if (!head) throw new NotFound();
    const target = targetFromItem(head);
    const current = await batchGet([reportKey(target, Number(head.reporter_id)), targetKey(target), ...targetReads(target)]);
    const report: ReportRecord | undefined = reportFromItem(current.get(reportKey(target, Number(head.reporter_id))));
    const targetItem = current.get(targetKey(target));
    if (!report || !targetItem) throw new NotFound();
    const state: TargetState = targetStateFromItem(targetItem);
    let comment: CommentRecord | undefined;
    let post: CommentedPost | undefined;
    let reported: PostRecord | undefined;
    if (target.comment) {
      comment = commentFromItems(
        current.get(commentKey({ post_id: target.postId, thread: target.comment.thread, sk: target.comment.sk })),
        current.get(keys.commentHead(target.comment.id)),
      );
      post = commentedPostFromEntry(current.get(postByIdKey(target.postId)));
      // A comment gone, or kept as a placeholder, took its reports with it.
      if (!comment || !post || comment.status === 'deleted') throw new NotFound();
    } else {
      reported = await reportedPost(target, current);
    }
    if (report.round < state.resolutions.length) throw new Conflict(ALREADY_RESOLVED);
    const action = parseResolve(input);
    if (action instanceof ValidationError) throw action;
    const resolution: ResolutionRecord = { status: action === 'dismiss' ? 'dismissed' : 'removed', resolved: isoTimestamp(), resolved_by: caller.username };
    const outcome = comment && post ? commentOutcome(caller, comment, post, action) : postOutcome(reported!, action);
    const writes = [tokenStillValid(caller), resolveWrite(target, state, resolution), ...outcome.writes];
    if (outcome.post) await commitPostChange({ ...outcome.post, with: writes, summary: summaryOf(outcome.post.after) });
    else await transactWrite(writes);
    return reportToApi(report, { open_reports: 0, resolutions: [...state.resolutions, resolution] }, outcome.shown);
  });
}
