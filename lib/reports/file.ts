import { tokenStillValid, type Caller } from '#lib/auth/tokens.ts';
import { commentChangeWrites, newCommentId, reportedWrite, type CommentRecord } from '#lib/comments/comment.ts';
import { findComment } from '#lib/comments/detail.ts';
import { reportsToHide } from '#lib/config.ts';
import { batchGet, readForAttempt, type BatchResult } from '#lib/db/batch.ts';
import { transactWrite, type TxWrite } from '#lib/db/transact.ts';
import { NotFound, PermissionDenied, ValidationError } from '#lib/errors.ts';
import { visiblePost } from '#lib/posts/access.ts';
import { commentCountWrite, DRAFT_COMMENTS, stillCommentable, type CommentedPost } from '#lib/posts/comment-target.ts';
import { postFromRead } from '#lib/posts/post.ts';
import { withRetries } from '#lib/retry.ts';
import { isoTimestamp } from '#lib/time.ts';
import type { Input } from '#lib/validation.ts';
import { parseReport } from './input.ts';
import { newReportWrites, readReport, reportReads, type ReportRecord, type ReportTarget, type TargetState } from './report.ts';
import { commentTargetToApi, postTargetToApi, reportToApi } from './view.ts';

// GET and POST /posts/detail/{slug}/report and /comments/detail/{id}/report (docs/api.md,
// Reports): the caller's report on a post or a comment they can see; a new one (201), or the one
// they filed before (200, unchanged). Once per user and target, never on one's own. The report
// that gives a published comment REPORTS_TO_HIDE open reports hides it in its own transaction.

export const OWN_POST = 'You cannot report your own post.';
export const OWN_COMMENT = 'You cannot report your own comment.';
export const NOT_REPORTABLE = 'This comment cannot be reported.';

export interface Filed {
  created: boolean;
  report: ReturnType<typeof reportToApi>;
}

/** A new report by the caller on `target`, in the target's current round. */
function newReport(caller: Caller, target: ReportTarget, state: TargetState, input: Input): ReportRecord {
  const parsed = parseReport(input);
  if (parsed instanceof ValidationError) throw parsed;
  return {
    id: newCommentId(),
    target,
    ...parsed,
    reporter: caller.username,
    reporter_id: caller.userId,
    created: isoTimestamp(),
    round: state.resolutions.length,
  };
}

const postTarget = (post: { id: string; slug: string }): ReportTarget => ({ postId: post.id, slug: post.slug });

/** GET /posts/detail/{slug}/report. `read`: the token's, with the post. */
export async function showPostReport(caller: Caller, slug: string, read: BatchResult) {
  const post = visiblePost(postFromRead(read, slug), caller);
  const target = postTarget(post);
  const { report, state } = readReport(await batchGet(reportReads(target, caller)), target, caller);
  if (!report) throw new NotFound();
  return reportToApi(report, state, postTargetToApi(post));
}

/** POST /posts/detail/{slug}/report. */
export function filePostReport(caller: Caller, slug: string, input: Input, read: BatchResult): Promise<Filed> {
  return withRetries(async (attempt) => {
    const post = visiblePost(postFromRead(await readForAttempt(attempt, read), slug), caller);
    if (post.author_id === caller.userId) throw new PermissionDenied(OWN_POST);
    const target = postTarget(post);
    const { report, state } = readReport(await batchGet(reportReads(target, caller)), target, caller);
    const shown = postTargetToApi(post);
    if (report) return { created: false, report: reportToApi(report, state, shown) };
    const filed = newReport(caller, target, state, input);
    await transactWrite([tokenStillValid(caller), ...newReportWrites(filed, state)]);
    return { created: true, report: reportToApi(filed, { ...state, open_reports: state.open_reports + 1 }, shown) };
  });
}

const commentTarget = (comment: CommentRecord, post: CommentedPost): ReportTarget => ({
  postId: post.id,
  slug: post.slug,
  comment: { id: comment.id, thread: comment.thread, sk: comment.sk },
});

/** A report's keys from a comment's head: its post and place are all a key needs. */
const readsFor = (caller: Caller) => (head: { id: string; post_id: string; thread: string | null; sk: string }) =>
  reportReads({ postId: head.post_id, slug: '', comment: { id: head.id, thread: head.thread, sk: head.sk } }, caller);

/** GET /comments/detail/{id}/report. `read`: the token's, with the comment's head. */
export async function showCommentReport(caller: Caller, id: string | undefined, read: BatchResult) {
  const found = await findComment(id, read, caller, readsFor(caller));
  // A placeholder's reports went with it.
  if (found.comment.status === 'deleted') throw new NotFound();
  const target = commentTarget(found.comment, found.post);
  const { report, state } = readReport(found.read, target, caller);
  if (!report) throw new NotFound();
  return reportToApi(report, state, commentTargetToApi(found.comment, found.post, caller));
}

/** The writes that hide a published comment its reports reached the limit of, or mark it reported. */
function reportedCommentWrites(comment: CommentRecord, post: CommentedPost, openAfter: number): TxWrite[] {
  if (comment.status !== 'published' || openAfter < reportsToHide()) return [reportedWrite(comment)];
  const hidden: CommentRecord = { ...comment, status: 'hidden', hidden_by: 'reports', reported: true };
  return [...commentChangeWrites(comment, hidden), commentCountWrite(post, -1), stillCommentable(post.id, { unlocked: false })];
}

/** POST /comments/detail/{id}/report. */
export function fileCommentReport(caller: Caller, id: string | undefined, input: Input, read: BatchResult): Promise<Filed> {
  return withRetries(async (attempt) => {
    const found = await findComment(id, await readForAttempt(attempt, read), caller, readsFor(caller));
    const { comment, post } = found;
    if (!post.publish) throw new PermissionDenied(DRAFT_COMMENTS);
    if (comment.author_id === caller.userId) throw new PermissionDenied(OWN_COMMENT);
    const target = commentTarget(comment, post);
    const { report, state } = readReport(found.read, target, caller);
    if (report && comment.status !== 'deleted') {
      return { created: false, report: reportToApi(report, state, commentTargetToApi(comment, post, caller)) };
    }
    if (comment.status !== 'published') throw new PermissionDenied(NOT_REPORTABLE);
    const filed = newReport(caller, target, state, input);
    const openAfter = state.open_reports + 1;
    const writes = reportedCommentWrites(comment, post, openAfter);
    await transactWrite([tokenStillValid(caller), ...newReportWrites(filed, state), ...writes]);
    const after: CommentRecord = writes.length > 1 ? { ...comment, status: 'hidden', hidden_by: 'reports' } : comment;
    return { created: true, report: reportToApi(filed, { ...state, open_reports: openAfter }, commentTargetToApi(after, post, caller)) };
  });
}
