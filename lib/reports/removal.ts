import { batchDelete } from '#lib/db/batch.ts';
import { keyOf, keys, reportsOfTarget, reportTargets } from '#lib/db/keys.ts';
import { partitionPages } from '#lib/db/query.ts';
import { SORT_KEY } from '#lib/db/table.ts';

// Reports go with their target, asynchronously (lib/reactions): a deleted post's (all of its
// partition: its own and its comments'), and a deleted comment's. A gone target already leaves
// GET /reports, which reads each target (lib/reports/list.ts). Idempotent.

/** Removes the reports of a post and of its comments, with their heads. */
export async function removePostReports(postId: string): Promise<void> {
  for await (const items of partitionPages(keys.reportsOf(postId), { attributes: ['PK', SORT_KEY, 'id', 'reason'], consistent: true })) {
    await batchDelete([...items.map(keyOf), ...items.filter((item) => item.reason !== undefined).map((report) => keys.reportHead(String(report.id)))]);
  }
}

/** Removes the reports of one comment (and its target's item), with their heads. */
export async function removeCommentReports(postId: string, commentId: string): Promise<void> {
  const target = reportTargets.comment(commentId);
  const range = { from: target, to: reportsOfTarget(target).to };
  for await (const items of partitionPages(keys.reportsOf(postId), { attributes: ['PK', SORT_KEY, 'id', 'reason'], sortKeyRange: range, consistent: true })) {
    await batchDelete([...items.map(keyOf), ...items.filter((item) => item.reason !== undefined).map((report) => keys.reportHead(String(report.id)))]);
  }
}
