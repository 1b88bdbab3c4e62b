import type { Caller } from '#lib/auth/tokens.ts';
import type { CommentRecord } from '#lib/comments/comment.ts';
import { seesWhole } from '#lib/comments/view.ts';
import type { CommentedPost } from '#lib/posts/comment-target.ts';
import type { PostRecord } from '#lib/posts/post.ts';
import { resolutionOf, type ReportRecord, type TargetState } from './report.ts';

// A report as the API shows it (docs/api.md, Reports), fields in the contract's order: its target
// as the caller may see it (a comment as "Who sees what" shows it), and the target's open reports.

export function postTargetToApi(post: Pick<PostRecord, 'slug' | 'title' | 'author' | 'publish'>) {
  return { type: 'post' as const, slug: post.slug, title: post.title, author: post.author, publish: post.publish };
}

export function commentTargetToApi(comment: CommentRecord, post: Pick<CommentedPost, 'slug' | 'authorId'>, caller: Caller | null) {
  const whole = seesWhole(comment, post, caller);
  return {
    type: 'comment' as const,
    id: comment.id,
    post: post.slug,
    author: whole ? comment.author : null,
    body: whole ? comment.body : '',
    status: comment.status,
  };
}

export type ApiReportTarget = ReturnType<typeof postTargetToApi> | ReturnType<typeof commentTargetToApi>;

export function reportToApi(report: ReportRecord, state: TargetState, target: ApiReportTarget) {
  const resolution = resolutionOf(report, state);
  return {
    id: report.id,
    reason: report.reason,
    note: report.note,
    reporter: report.reporter,
    created: report.created,
    status: resolution ? resolution.status : 'open',
    resolved: resolution ? resolution.resolved : null,
    resolved_by: resolution ? resolution.resolved_by : null,
    target,
    open_reports: state.open_reports,
  };
}
