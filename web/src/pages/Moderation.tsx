import { useEffect, useRef, useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { api, hasNextPage, outcome, type Failure, type Report } from '../api/client.ts';
import { Content } from '../components/Content.tsx';
import { DateTime } from '../components/DateTime.tsx';
import { RequireAccount } from '../components/Gates.tsx';
import { Pagination } from '../components/Pagination.tsx';
import { Alert, describe } from '../components/Problem.tsx';
import { reasonLabel } from '../components/ReportDialog.tsx';
import { useLoad, useTitle } from '../hooks.ts';
import { pageNumber, paths, withQuery } from '../paths.ts';

/** Reported targets on a page (the API's largest page). */
const REPORTS_PER_PAGE = 50;

/**
 * `/moderation`: every reported post and comment with open reports, newest report first, each with
 * "Dismiss" (the reports were wrong: a comment hidden by them is shown again) and "Remove" (the
 * comment hidden by a moderator, the post unpublished). Moderators only.
 */
export default function Moderation() {
  useTitle('Moderation');
  return (
    <RequireAccount>
      <Reports />
    </RequireAccount>
  );
}

function Reports() {
  const { query } = useLocation();
  const page = pageNumber(query.page);
  const { state, reload } = useLoad(() => outcome(() => api.GET('/reports', { params: { query: { page, page_size: REPORTS_PER_PAGE } } })), [page]);
  const heading = useRef<HTMLHeadingElement>(null);
  const [resolved, setResolved] = useState<Set<string>>(new Set());
  const [status, setStatus] = useState('');
  useEffect(() => setResolved(new Set()), [state]);

  const done = (report: Report, text: string) => {
    setResolved((ids) => new Set(ids).add(report.id));
    setStatus(text);
    heading.current?.focus();
  };

  if (state.status === 'done' && !state.ok && state.failure.kind === 'forbidden') {
    return (
      <>
        <h1>Moderation</h1>
        <p>This page is for moderators.</p>
      </>
    );
  }
  return (
    <>
      <h1 ref={heading} tabIndex={-1}>
        Moderation
      </h1>
      <p class="comments-status" role="status">
        {status}
      </p>
      <Content state={state} reload={reload}>
        {(reports, response) => {
          const open = reports.filter((report) => !resolved.has(report.id));
          return open.length === 0 && page === 1 ? (
            <p class="empty">No open reports.</p>
          ) : (
            <>
              <div class="cards">
                {open.map((report) => (
                  <ReportCard key={report.id} report={report} onResolved={done} />
                ))}
              </div>
              <Pagination
                page={page}
                total={null}
                pageSize={REPORTS_PER_PAGE}
                hasNext={hasNextPage(response)}
                href={(p) => withQuery(paths.moderation, { page: p > 1 ? p : '' })}
              />
            </>
          );
        }}
      </Content>
    </>
  );
}

function ReportCard({ report, onResolved }: { report: Report; onResolved: (report: Report, text: string) => void }) {
  const [failure, setFailure] = useState<Failure | null>(null);
  const [busy, setBusy] = useState(false);
  const { target } = report;
  const headingId = `report-${report.id}`;
  const name = target.type === 'post' ? target.title : `Comment by ${target.author ?? 'a deleted account'}`;
  const href = target.type === 'post' ? paths.post(target.slug) : paths.comment(target.post, target.id);

  const resolve = async (action: 'dismiss' | 'remove') => {
    if (busy) return;
    setBusy(true);
    setFailure(null);
    const result = await outcome(() => api.POST('/reports/detail/{id}/resolve', { params: { path: { id: report.id } }, body: { action } }));
    setBusy(false);
    // Resolved meanwhile by another moderator (409): done all the same.
    if (result.ok || result.failure.kind === 'conflict') {
      const what = target.type === 'post' ? `“${target.title}”` : name.replace(/^Comment/, 'The comment');
      onResolved(report, action === 'dismiss' ? `Reports on ${what} dismissed.` : `${what} removed.`);
    } else setFailure(result.failure);
  };

  return (
    <article class="card report" aria-labelledby={headingId}>
      <h2 id={headingId}>
        <a href={href}>{name}</a>
      </h2>
      <p class="meta">
        {target.type === 'post' ? (
          <>
            A post by <a href={paths.user(target.author)}>{target.author}</a>
            {!target.publish && ' (unpublished)'}
          </>
        ) : (
          <>On the post {target.post}</>
        )}{' '}
        · Reported <DateTime value={report.created} />
      </p>
      {target.type === 'comment' && target.body && <blockquote class="reported-text">{target.body}</blockquote>}
      <dl class="facts">
        <div>
          <dt>Reason</dt>
          <dd>{reasonLabel(report.reason)}</dd>
        </div>
        {report.note && (
          <div>
            <dt>Note</dt>
            <dd>{report.note}</dd>
          </div>
        )}
      </dl>
      <p class="counts">{report.open_reports === 1 ? '1 report' : `${report.open_reports} reports`}</p>
      {failure && (
        <Alert>
          <p>{describe(failure)}</p>
        </Alert>
      )}
      <div class="actions">
        <button type="button" class="secondary" aria-describedby={headingId} aria-busy={busy ? 'true' : undefined} onClick={() => void resolve('dismiss')}>
          Dismiss
        </button>
        <button type="button" class="danger" aria-describedby={headingId} aria-busy={busy ? 'true' : undefined} onClick={() => void resolve('remove')}>
          Remove
        </button>
      </div>
    </article>
  );
}
