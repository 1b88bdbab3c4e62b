import type { Caller } from '#lib/auth/tokens.ts';
import type { BatchResult, Item } from '#lib/db/batch.ts';
import { keys, listPartitions, listSortKeys, parseReportTarget, reportTargets, type Key } from '#lib/db/keys.ts';
import { INDEXES } from '#lib/db/table.ts';
import { tx, type TxWrite } from '#lib/db/transact.ts';

// The report entity (docs/data-model.md, Reports). One report per user and target (a post, or a
// comment of it), in the post's reports partition beside the target's item, which counts the
// target's open reports, remembers its newest one (what GET /reports lists, through GSI1, while
// any is open) and the resolutions of its past rounds: resolving closes every open report of a
// target at once by starting a new round, so a report is open while its round is the target's
// current one, and otherwise has its round's resolution. A report's head, keyed by its id, says
// where it is (POST /reports/detail/{id}/resolve names the id alone).

export const REPORT_REASONS = ['spam', 'abuse', 'off-topic', 'other'] as const;
export type ReportReason = (typeof REPORT_REASONS)[number];
export const RESOLUTIONS = ['dismissed', 'removed'] as const;
export type Resolution = (typeof RESOLUTIONS)[number];

/** A reported target: a post, or one of its comments (with where the comment is stored). */
export interface ReportTarget {
  postId: string;
  /** The post's slug when it was reported (it may have been renamed since: lib/posts/listed.ts readPostsById). */
  slug: string;
  comment?: { id: string; thread: string | null; sk: string };
}

export interface ReportRecord {
  id: string;
  target: ReportTarget;
  reason: ReportReason;
  note: string | null;
  reporter: string;
  reporter_id: number;
  created: string;
  /** The target's round when it was filed: open while it is the target's current one. */
  round: number;
}

export interface ResolutionRecord {
  status: Resolution;
  resolved: string;
  resolved_by: string;
}

/** A target's item: its open reports, its current round and the resolutions of the rounds before. */
export interface TargetState {
  open_reports: number;
  resolutions: ResolutionRecord[];
}

/** The sort key of a target in its post's partition. */
export const targetOf = (target: ReportTarget): string => (target.comment ? reportTargets.comment(target.comment.id) : reportTargets.post);

export const targetKey = (target: ReportTarget): Key => keys.reportedTarget(target.postId, targetOf(target));

export const reportKey = (target: ReportTarget, userId: number): Key => keys.report(target.postId, targetOf(target), userId);

/** What a read of the caller's report on a target asks for: the report and the target's item. */
export const reportReads = (target: ReportTarget, caller: Caller): Key[] => [reportKey(target, caller.userId), targetKey(target)];

function targetFields(target: ReportTarget): Item {
  return {
    post_id: target.postId,
    slug: target.slug,
    target: targetOf(target),
    ...(target.comment ? { comment_thread: target.comment.thread, comment_sk: target.comment.sk } : {}),
  };
}

/** The target an item of the reports (a report, a target's item, a head) names. */
export function targetFromItem(item: Item): ReportTarget {
  const { commentId } = parseReportTarget(String(item.target));
  return {
    postId: String(item.post_id),
    slug: String(item.slug),
    ...(commentId
      ? {
          comment: {
            id: commentId,
            thread: item.comment_thread === null || item.comment_thread === undefined ? null : String(item.comment_thread),
            sk: String(item.comment_sk),
          },
        }
      : {}),
  };
}

export function reportFromItem(item: Item | undefined): ReportRecord | undefined {
  if (!item) return undefined;
  return {
    id: String(item.id),
    target: targetFromItem(item),
    reason: String(item.reason) as ReportReason,
    note: item.note === null || item.note === undefined ? null : String(item.note),
    reporter: String(item.reporter),
    reporter_id: Number(item.reporter_id),
    created: String(item.created),
    round: Number(item.round ?? 0),
  };
}

export function targetStateFromItem(item: Item | undefined): TargetState {
  const resolutions = Array.isArray(item?.resolutions) ? (item.resolutions as Item[]) : [];
  return {
    open_reports: Math.max(0, Number(item?.open_reports ?? 0)),
    resolutions: resolutions.map((resolution) => ({
      status: String(resolution.status) as Resolution,
      resolved: String(resolution.resolved),
      resolved_by: String(resolution.resolved_by),
    })),
  };
}

/** The caller's report on a target, and the target's state, from a read of reportReads. */
export function readReport(read: BatchResult, target: ReportTarget, caller: Caller): { report?: ReportRecord; state: TargetState } {
  const report = reportFromItem(read.get(reportKey(target, caller.userId)));
  return { ...(report ? { report } : {}), state: targetStateFromItem(read.get(targetKey(target))) };
}

/** A report's resolution, or undefined while it is open (its round is the target's current one). */
export const resolutionOf = (report: ReportRecord, state: TargetState): ResolutionRecord | undefined => state.resolutions[report.round];

/**
 * A new report: the report, its head, and its target's item counting it, conditioned on the count
 * read (so that of reports filed at once, each sees the others': the one that reaches the limit
 * hides a comment, once).
 */
export function newReportWrites(report: ReportRecord, state: TargetState): TxWrite[] {
  const fields = targetFields(report.target);
  const item = {
    ...reportKey(report.target, report.reporter_id),
    ...fields,
    id: report.id,
    reason: report.reason,
    note: report.note,
    reporter: report.reporter,
    reporter_id: report.reporter_id,
    created: report.created,
    round: report.round,
  };
  const newest = {
    id: report.id,
    reason: report.reason,
    note: report.note,
    reporter: report.reporter,
    reporter_id: report.reporter_id,
    created: report.created,
  };
  const names = { '#lpk': INDEXES.lists.partitionKey, '#lsk': INDEXES.lists.sortKey, '#target': 'target' };
  return [
    { write: tx.put(item, { expression: 'attribute_not_exists(PK)' }) },
    { write: tx.put({ ...keys.reportHead(report.id), ...fields, id: report.id, reporter_id: report.reporter_id }, { expression: 'attribute_not_exists(PK)' }) },
    {
      write: tx.update(
        targetKey(report.target),
        {
          expression:
            'SET post_id = :post, slug = :slug, #target = :target, comment_thread = :thread, comment_sk = :sk, newest = :newest, ' +
            '#lpk = :open, #lsk = :listed, resolutions = if_not_exists(resolutions, :none) ADD open_reports :one',
          names,
          values: {
            ':post': fields.post_id,
            ':slug': fields.slug,
            ':target': fields.target,
            ':thread': fields.comment_thread ?? null,
            ':sk': fields.comment_sk ?? null,
            ':newest': newest,
            ':open': listPartitions.openReports,
            ':listed': listSortKeys.openReport(report.created, report.id),
            ':none': [],
            ':one': 1,
          },
        },
        state.open_reports === 0 && state.resolutions.length === 0
          ? { expression: 'attribute_not_exists(PK) OR (open_reports = :zero AND size(resolutions) = :round)', values: { ':zero': 0, ':round': 0 } }
          : { expression: 'open_reports = :n AND size(resolutions) = :round', values: { ':n': state.open_reports, ':round': state.resolutions.length } },
      ),
    },
  ];
}

/**
 * Closes the target's open reports with `resolution`: a new round, no open report, out of GET
 * /reports; conditioned on the round read (of two moderators resolving at once, the second reads
 * again and gets 409).
 */
export function resolveWrite(target: ReportTarget, state: TargetState, resolution: ResolutionRecord): TxWrite {
  return {
    write: tx.update(
      targetKey(target),
      {
        expression: 'SET resolutions = list_append(resolutions, :resolution), open_reports = :zero REMOVE #lpk, #lsk',
        names: { '#lpk': INDEXES.lists.partitionKey, '#lsk': INDEXES.lists.sortKey },
        values: { ':resolution': [resolution], ':zero': 0 },
      },
      { expression: 'size(resolutions) = :round', values: { ':round': state.resolutions.length } },
    ),
  };
}

/** The newest open report a target's item remembers (GET /reports shows it), as a report. */
export function newestReport(item: Item): ReportRecord | undefined {
  const newest = item.newest as Item | undefined;
  if (!newest) return undefined;
  return reportFromItem({ ...targetFieldsOf(item), ...newest, round: targetStateFromItem(item).resolutions.length });
}

const targetFieldsOf = (item: Item): Item => ({
  post_id: item.post_id,
  slug: item.slug,
  target: item.target,
  comment_thread: item.comment_thread,
  comment_sk: item.comment_sk,
});
