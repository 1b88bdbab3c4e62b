import { useRef, useState } from 'preact/hooks';
import { api, outcome, reportBody, type Comment, type Failure, type Post, type ReportReason } from '../api/client.ts';
import { paths } from '../paths.ts';
import { EditComment, ReplyForm } from './CommentForms.tsx';
import { DateTime } from './DateTime.tsx';
import { ConfirmDialog } from './Dialog.tsx';
import { Markdown } from './Markdown.tsx';
import { Alert, describe } from './Problem.tsx';
import { ReportDialog } from './ReportDialog.tsx';

// One comment of the region "Comments" (Comments.tsx): its article and the controls its reader may use.

const isPlaceholder = (comment: Comment) => comment.author === null;

/** What a comment's controls need to know of the page. */
export interface Context {
  post: Post;
  username: string | null;
  moderator: boolean;
  /** A comment came back changed (null: gone). */
  replace: (before: Comment, after: Comment | null) => void;
  /** A new comment or reply. */
  posted: (comment: Comment) => void;
  /** Says something in the region's status line, and takes the focus there (after a deletion). */
  announce: (text: string, focus?: boolean) => void;
}

type Open = 'reply' | 'edit' | 'delete' | 'report' | null;

/** One comment: an `article` with its author, time, text and the controls its reader may use. */
export function CommentView({ comment, context }: { comment: Comment; context: Context }) {
  const { post, username, moderator } = context;
  const [open, setOpen] = useState<Open>(null);
  const [note, setNote] = useState<string | null>(null);
  const [failure, setFailure] = useState<Failure | null>(null);
  const [busy, setBusy] = useState(false);
  const article = useRef<HTMLElement>(null);
  const placeholder = isPlaceholder(comment);
  const own = !placeholder && comment.author === username;
  const postAuthor = username !== null && username === post.author;
  const writable = post.publish && !post.comments_locked;
  const can = {
    reply: username !== null && writable && comment.status === 'published' && !placeholder,
    edit: own && writable,
    delete: post.publish && !placeholder && (own || moderator),
    hide: post.publish && !placeholder && comment.status === 'published' && (moderator || postAuthor),
    unhide: post.publish && !placeholder && comment.status === 'hidden' && (moderator || (postAuthor && comment.hidden_by === 'post_author')),
    report: username !== null && post.publish && !placeholder && !own && comment.status === 'published',
  };
  const id = { params: { path: { id: comment.id } } };
  /** Closes a form; the focus goes back to the button that opened it. */
  const close = (from: 'reply' | 'edit') => {
    setOpen(null);
    requestAnimationFrame(() => (article.current?.querySelector<HTMLElement>(`[data-action="${from}"]`) ?? article.current)?.focus());
  };

  const setStatus = async (status: 'hidden' | 'published') => {
    if (busy) return;
    setBusy(true);
    setFailure(null);
    setNote(null);
    const result = await outcome(() => api.PUT('/comments/detail/{id}', { ...id, body: { status } }));
    setBusy(false);
    if (result.ok) {
      context.replace(comment, result.data);
      setNote(status === 'hidden' ? 'Hidden: other readers see that a comment was hidden here.' : 'Shown to every reader again.');
      // "Hide" became "Unhide" (or back): the focus goes to it.
      requestAnimationFrame(() => article.current?.querySelector<HTMLElement>(`[data-action="${status === 'hidden' ? 'unhide' : 'hide'}"]`)?.focus());
    } else setFailure(result.failure);
  };

  /** The comment as it is now (after a deletion: a placeholder, or gone). */
  const reread = async (): Promise<Comment | null | undefined> => {
    const result = await outcome(() => api.GET('/comments/detail/{id}', id));
    return result.ok ? result.data : result.failure.kind === 'not-found' ? null : undefined;
  };

  const remove = async (): Promise<Failure | null> => {
    const result = await outcome(() => api.DELETE('/comments/detail/{id}', id));
    if (!result.ok && result.failure.kind !== 'not-found') return result.failure;
    // A top-level comment with replies stays as a placeholder; any other is gone.
    const now = comment.parent === null && comment.total_replies > 0 ? await reread() : null;
    setOpen(null);
    context.replace(comment, now === undefined ? { ...comment, author: null, body: '', status: 'deleted' } : now);
    context.announce('The comment was deleted.', now === null);
    return null;
  };

  const report = async (reason: ReportReason | undefined, text: string): Promise<Failure | null> => {
    const result = await outcome(() => api.POST('/comments/detail/{id}/report', { ...id, body: reportBody(reason, text) }));
    if (!result.ok) return result.failure;
    setOpen(null);
    setNote(result.response.status === 201 ? 'Thank you: your report was sent to the moderators.' : 'You reported this comment before.');
    // Enough reports hide a comment at once.
    const now = await reread();
    if (now !== undefined) context.replace(comment, now);
    return null;
  };

  const label = placeholder
    ? comment.status === 'deleted'
      ? 'Deleted comment'
      : 'Hidden comment'
    : `${comment.parent ? 'Reply' : 'Comment'} by ${comment.author}`;
  return (
    <article id={`comment-${comment.id}`} class={`comment${comment.status === 'hidden' ? ' hidden' : ''}`} aria-label={label} tabIndex={-1} ref={article}>
      {placeholder ? (
        <p class="placeholder">{comment.status === 'deleted' ? 'This comment was deleted.' : 'This comment was hidden.'}</p>
      ) : (
        <>
          <p class="meta">
            <a href={paths.user(comment.author!)}>{comment.author}</a> · <DateTime value={comment.created} />
            {comment.edited && <span> (edited)</span>}
          </p>
          {comment.status === 'hidden' && <p class="badge hidden-note">Hidden from other readers.</p>}
          {open === 'edit' ? (
            <EditComment
              comment={comment}
              onSaved={(saved) => {
                close('edit');
                context.replace(comment, saved);
              }}
              onCancel={() => close('edit')}
              onReread={(current) => context.replace(comment, current)}
            />
          ) : (
            <Markdown source={comment.body} class="prose comment-body" />
          )}
        </>
      )}
      {open !== 'edit' && Object.values(can).some(Boolean) && (
        <div class="comment-actions">
          {can.reply && (
            <button
              type="button"
              class="link-button"
              data-action="reply"
              aria-expanded={open === 'reply'}
              onClick={() => setOpen(open === 'reply' ? null : 'reply')}
            >
              Reply
            </button>
          )}
          {can.edit && (
            <button type="button" class="link-button" data-action="edit" onClick={() => setOpen('edit')}>
              Edit
            </button>
          )}
          {can.delete && (
            <button type="button" class="link-button" onClick={() => setOpen('delete')}>
              Delete
            </button>
          )}
          {can.hide && (
            <button type="button" class="link-button" data-action="hide" aria-busy={busy ? 'true' : undefined} onClick={() => void setStatus('hidden')}>
              Hide
            </button>
          )}
          {can.unhide && (
            <button type="button" class="link-button" data-action="unhide" aria-busy={busy ? 'true' : undefined} onClick={() => void setStatus('published')}>
              Unhide
            </button>
          )}
          {can.report && (
            <button
              type="button"
              class="link-button"
              onClick={() => {
                setNote(null);
                setOpen('report');
              }}
            >
              Report
            </button>
          )}
        </div>
      )}
      {note && (
        <p class="success" role="status">
          {note}
        </p>
      )}
      {failure && (
        <Alert>
          <p>{describe(failure)}</p>
        </Alert>
      )}
      {open === 'reply' && can.reply && (
        <ReplyForm
          to={comment}
          onPosted={(reply) => {
            setOpen(null);
            context.posted(reply);
          }}
          onCancel={() => close('reply')}
          slug={post.slug}
        />
      )}
      {open === 'delete' && (
        <ConfirmDialog title="Delete this comment?" action="Delete" onConfirm={remove} onClose={() => setOpen(null)}>
          <p>It will be gone for good; replies to it stay, under a note that it was deleted.</p>
        </ConfirmDialog>
      )}
      {open === 'report' && <ReportDialog title="Report this comment" send={report} onClose={() => setOpen(null)} />}
    </article>
  );
}
