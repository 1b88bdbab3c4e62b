import { useEffect, useRef, useState, type Dispatch, type StateUpdater } from 'preact/hooks';
import { api, nextPage, outcome, reportBody, totalOf, type Comment, type CommentThread, type Failure, type Post, type ReportReason } from '../api/client.ts';
import { useModerator, useSavedCheckbox, useSession, useSubmission } from '../hooks.ts';
import { here, loginFor, paths } from '../paths.ts';
import { DateTime } from './DateTime.tsx';
import { ConfirmDialog } from './Dialog.tsx';
import { Field, otherErrors } from './Field.tsx';
import { Markdown } from './Markdown.tsx';
import { Alert, describe, FormAlert, Problem } from './Problem.tsx';
import { ReportDialog } from './ReportDialog.tsx';

// The region "Comments" of a post page, below its heading (pages/Post.tsx): a chunk of its own,
// loaded after the post. Threads oldest first, 20 a page ("Load more comments"), each top-level
// comment followed by its replies (the first three, then "Show N more replies"); the form; and on
// each comment the controls its reader may use (v1.3 §8). Every change shows at once, from the
// API's answer, without a reload; the post's count of comments follows it.

type Cursor = { page: number; cursor: string };

interface Thread {
  comment: Comment;
  replies: Comment[];
  /** The next page of replies; undefined while only the preview is shown (page 1 next), null once all are. */
  next: Cursor | null | undefined;
}

/** What a comment's controls need to know of the page. */
interface Context {
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

const threadOf = ({ replies, ...comment }: CommentThread): Thread => ({ comment, replies, next: undefined });

/** `a`, then what `b` adds, by id (a page read again may hold comments shown already). */
function merge(a: Comment[], b: Comment[]): Comment[] {
  const seen = new Set(a.map((comment) => comment.id));
  return [...a, ...b.filter((comment) => !seen.has(comment.id))];
}

const published = (comment: Comment | null) => (comment?.status === 'published' ? 1 : 0);
const isPlaceholder = (comment: Comment) => comment.author === null;
const TARGET = /^#comment-([A-Za-z0-9_-]{22})$/;
/** Pages "Load more comments" takes on its own to reach a comment the address names. */
const SEEK_PAGES = 25;

export function Comments({ post, onChange }: { post: Post; onChange: Dispatch<StateUpdater<Post>> }) {
  const { token, username } = useSession();
  const moderator = useModerator();
  const [threads, setThreads] = useState<Thread[]>([]);
  const [load, setLoad] = useState<{ status: 'loading' } | { status: 'done' } | { status: 'failed'; failure: Failure }>({ status: 'loading' });
  const [next, setNext] = useState<Cursor | null>(null);
  const [more, setMore] = useState<{ busy: boolean; failure: Failure | null }>({ busy: false, failure: null });
  const [attempt, setAttempt] = useState(0);
  const [status, setStatus] = useState('');
  const statusLine = useRef<HTMLParagraphElement>(null);
  const slug = post.slug;
  const path = { path: { slug } };

  const count = (delta: number) => {
    if (delta !== 0) onChange((current) => ({ ...current, total_comments: Math.max(0, current.total_comments + delta) }));
  };

  useEffect(() => {
    let current = true;
    setLoad({ status: 'loading' });
    outcome(() => api.GET('/posts/detail/{slug}/comments', { params: path })).then((result) => {
      if (!current) return;
      // A refused token: forgotten, and the comments asked again as a visitor.
      if (!result.ok && result.failure.kind === 'unauthorized' && result.failure.hadToken) return;
      if (!result.ok) return setLoad({ status: 'failed', failure: result.failure });
      setThreads(result.data.map(threadOf));
      setNext(nextPage(result.response) ?? null);
      setMore({ busy: false, failure: null });
      setLoad({ status: 'done' });
    });
    return () => {
      current = false;
    };
  }, [slug, token, attempt]);

  const loadMore = async () => {
    if (!next || more.busy) return;
    setMore({ busy: true, failure: null });
    const result = await outcome(() => api.GET('/posts/detail/{slug}/comments', { params: { ...path, query: { page: next.page, cursor: next.cursor } } }));
    if (!result.ok) return setMore({ busy: false, failure: result.failure });
    setThreads((shown) => {
      const ids = new Set(shown.map((thread) => thread.comment.id));
      return [...shown, ...result.data.map(threadOf).filter((thread) => !ids.has(thread.comment.id))];
    });
    setNext(nextPage(result.response) ?? null);
    setMore({ busy: false, failure: null });
  };

  const showReplies = async (thread: Thread): Promise<Failure | null> => {
    const id = thread.comment.id;
    const query = thread.next ? { page: thread.next.page, cursor: thread.next.cursor, page_size: 50 } : { page_size: 50 };
    const result = await outcome(() => api.GET('/comments/detail/{id}/replies', { params: { path: { id }, query } }));
    if (!result.ok) return result.failure;
    const total = totalOf(result.response);
    setThreads((shown) =>
      shown.map((t) => {
        if (t.comment.id !== id) return t;
        // From page 1 the API's order, then replies posted here meanwhile; later pages after those shown.
        const replies = thread.next ? merge(t.replies, result.data) : merge(result.data, t.replies);
        return { comment: total === null ? t.comment : { ...t.comment, total_replies: total }, replies, next: nextPage(result.response) ?? null };
      }),
    );
    return null;
  };

  const replace = (before: Comment, after: Comment | null) => {
    count(published(after) - published(before));
    setThreads((shown) =>
      shown.flatMap((thread) => {
        if (thread.comment.id === before.id) return after ? [{ ...thread, comment: after }] : [];
        if (thread.comment.id !== before.parent) return [thread];
        const replies = after
          ? thread.replies.map((reply) => (reply.id === before.id ? after : reply))
          : thread.replies.filter((reply) => reply.id !== before.id);
        const total_replies = after ? thread.comment.total_replies : Math.max(0, thread.comment.total_replies - 1);
        // A deleted comment's placeholder goes with its last reply.
        if (total_replies === 0 && thread.comment.status === 'deleted') return [];
        return [{ ...thread, comment: { ...thread.comment, total_replies }, replies }];
      }),
    );
  };

  const posted = (comment: Comment) => {
    count(published(comment));
    setThreads((shown) =>
      comment.parent === null
        ? [...shown, { comment, replies: [], next: null }]
        : shown.map((thread) =>
            thread.comment.id === comment.parent
              ? { ...thread, comment: { ...thread.comment, total_replies: thread.comment.total_replies + 1 }, replies: [...thread.replies, comment] }
              : thread,
          ),
    );
    announce(comment.parent === null ? 'Your comment was posted.' : 'Your reply was posted.');
    // A reply's form is gone with its sending: the focus goes to the reply (once it is shown).
    if (comment.parent !== null) requestAnimationFrame(() => document.getElementById(`comment-${comment.id}`)?.focus());
  };

  const announce = (text: string, focus = false) => {
    setStatus(text);
    if (focus) statusLine.current?.focus();
  };

  useSeek(threads, load.status === 'done', next, more.busy, loadMore, showReplies);

  const context: Context = { post, username, moderator, replace, posted, announce };
  const isAuthor = username !== null && username === post.author;

  return (
    <>
      {(isAuthor || moderator) && <LockComments post={post} onChange={onChange} />}
      {!post.publish ? (
        <p class="comments-closed">Publish the post to open comments.</p>
      ) : post.comments_locked ? (
        <p class="comments-closed">Comments are locked.</p>
      ) : !token ? (
        <p class="comments-closed">
          <a href={loginFor(here())}>Log in to comment</a>
        </p>
      ) : (
        <CommentForm slug={slug} onPosted={posted} />
      )}
      <p class="comments-status" role="status" tabIndex={-1} ref={statusLine}>
        {status}
      </p>
      {load.status === 'loading' ? (
        <p class="comments-loading">Loading comments…</p>
      ) : load.status === 'failed' ? (
        <Problem failure={load.failure} onRetry={() => setAttempt((n) => n + 1)} />
      ) : threads.length === 0 ? (
        <p class="empty">No comments yet.</p>
      ) : (
        <div class="comment-list">
          {threads.map((thread) => (
            <ThreadView key={thread.comment.id} thread={thread} context={context} showReplies={showReplies} />
          ))}
        </div>
      )}
      {load.status === 'done' && more.failure && <Problem failure={more.failure} onRetry={() => void loadMore()} />}
      {load.status === 'done' && next && (
        <button type="button" class="secondary" aria-busy={more.busy ? 'true' : undefined} onClick={() => void loadMore()}>
          Load more comments
        </button>
      )}
    </>
  );
}

/**
 * A comment the address names (`#comment-<id>`, the links of /moderation): the pages and replies
 * it is in are loaded, then it is scrolled to and focused. It reads the comment first, to know
 * its thread.
 */
function useSeek(
  threads: Thread[],
  loaded: boolean,
  next: Cursor | null,
  busy: boolean,
  loadMore: () => Promise<void>,
  showReplies: (thread: Thread) => Promise<Failure | null>,
) {
  const [target] = useState(() => TARGET.exec(location.hash)?.[1] ?? null);
  const [thread, setThread] = useState<string | null | undefined>(undefined);
  const steps = useRef(0);
  useEffect(() => {
    if (!target) return;
    outcome(() => api.GET('/comments/detail/{id}', { params: { path: { id: target } } })).then((result) =>
      setThread(result.ok ? (result.data.parent ?? result.data.id) : null),
    );
  }, [target]);
  useEffect(() => {
    if (!target || !thread || !loaded || busy || steps.current < 0) return;
    const element = document.getElementById(`comment-${target}`);
    if (element) {
      steps.current = -1;
      element.scrollIntoView({ block: 'start' });
      element.focus({ preventScroll: true });
      return;
    }
    if (steps.current++ >= SEEK_PAGES) return;
    const shown = threads.find((t) => t.comment.id === thread);
    if (shown && shown.next !== null) void showReplies(shown);
    else if (!shown && next) void loadMore();
  }, [threads, loaded, busy, thread]);
}

/** "Lock comments" (the post's author, moderators): no new comments and no edits, for everyone. */
function LockComments({ post, onChange }: { post: Post; onChange: Dispatch<StateUpdater<Post>> }) {
  const [failure, setFailure] = useState<Failure | null>(null);
  const box = useSavedCheckbox(post.comments_locked, async (locked) => {
    setFailure(null);
    const result = await outcome(() => api.PUT('/posts/detail/{slug}', { params: { path: { slug: post.slug } }, body: { comments_locked: locked } }));
    if (result.ok) onChange(result.data);
    else setFailure(result.failure);
  });
  return (
    <div class="field checkbox">
      <input id="comments-lock" type="checkbox" checked={box.checked} aria-busy={box.busy ? 'true' : undefined} onChange={box.onChange} />
      <label for="comments-lock">Lock comments</label>
      {failure && (
        <Alert>
          <p>{describe(failure)}</p>
        </Alert>
      )}
    </div>
  );
}

/**
 * The form of a new comment ("Add a comment") or of a reply ("Reply to <username>", with
 * "Cancel"): the comment the API answers goes to `onPosted`, its field errors next to the field.
 */
function CommentForm({ slug, to, onPosted, onCancel }: { slug: string; to?: Comment; onPosted: (comment: Comment) => void; onCancel?: () => void }) {
  const [body, setBody] = useState('');
  const { busy, errors, failure, run } = useSubmission();
  const fieldId = to ? `reply-${to.id}` : 'comment-new';
  const submit = async () => {
    if (busy) return;
    await run(async () => {
      const result = await outcome(() =>
        api.POST('/posts/detail/{slug}/comments', { params: { path: { slug } }, body: to ? { body, parent: to.id } : { body } }),
      );
      if (!result.ok) return result.failure;
      setBody('');
      onPosted(result.data);
      return null;
    });
  };
  return (
    <form
      class="form comment-form"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      {to ? (
        <Field name="body" id={fieldId} label={`Reply to ${to.author}`} value={body} onInput={setBody} errors={errors} multiline rows={3} />
      ) : (
        <Field name="body" id={fieldId} label="Add a comment" value={body} onInput={setBody} errors={errors} multiline rows={4} hint="Markdown works here." />
      )}
      <FormAlert messages={otherErrors(errors, ['body'])} failure={failure} onRetry={() => void submit()} />
      <div class="actions">
        <button type="submit" aria-disabled={busy ? 'true' : undefined}>
          {to ? 'Post reply' : 'Post comment'}
        </button>
        {onCancel && (
          <button type="button" class="secondary" onClick={onCancel}>
            Cancel
          </button>
        )}
      </div>
    </form>
  );
}

function ThreadView({ thread, context, showReplies }: { thread: Thread; context: Context; showReplies: (thread: Thread) => Promise<Failure | null> }) {
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<Failure | null>(null);
  const hidden = thread.next === null ? 0 : Math.max(0, thread.comment.total_replies - thread.replies.length);
  const more = async () => {
    if (busy) return;
    setBusy(true);
    setFailure(null);
    setFailure(await showReplies(thread));
    setBusy(false);
  };
  return (
    <div class="thread">
      <CommentView comment={thread.comment} context={context} />
      {thread.replies.length > 0 && (
        <ul class="replies" aria-label="Replies">
          {thread.replies.map((reply) => (
            <li key={reply.id}>
              <CommentView comment={reply} context={context} />
            </li>
          ))}
        </ul>
      )}
      {failure && <Problem failure={failure} onRetry={() => void more()} />}
      {hidden > 0 && (
        <button type="button" class="link-button more-replies" aria-busy={busy ? 'true' : undefined} onClick={() => void more()}>
          {hidden === 1 ? 'Show 1 more reply' : `Show ${hidden} more replies`}
        </button>
      )}
    </div>
  );
}

type Open = 'reply' | 'edit' | 'delete' | 'report' | null;

/** One comment: an `article` with its author, time, text and the controls its reader may use. */
function CommentView({ comment, context }: { comment: Comment; context: Context }) {
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
              context={context}
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

/** Moves the focus into a form as it opens (the person pressed "Reply" or "Edit" to type). */
function useFocusOnOpen(id: string) {
  useEffect(() => {
    document.getElementById(id)?.focus();
  }, []);
}

/** The form of a reply, the focus in its field as it opens (the person pressed "Reply" to type). */
function ReplyForm(props: { to: Comment; slug: string; onPosted: (reply: Comment) => void; onCancel: () => void }) {
  useFocusOnOpen(`reply-${props.to.id}`);
  return <CommentForm {...props} />;
}

/**
 * The editor of one's comment. `modified` as read goes with the text: a change made elsewhere in
 * between is a 409, which shows the text as it is now (read again) and keeps what was typed;
 * saving again then replaces that text.
 */
function EditComment({
  comment,
  onSaved,
  onCancel,
  context,
}: {
  comment: Comment;
  onSaved: (comment: Comment) => void;
  onCancel: () => void;
  context: Context;
}) {
  const [body, setBody] = useState(comment.body);
  const [conflict, setConflict] = useState<string | null>(null);
  const { busy, errors, failure, run } = useSubmission();
  const fieldId = `edit-${comment.id}`;
  useFocusOnOpen(fieldId);
  const submit = async () => {
    if (busy) return;
    await run(async () => {
      setConflict(null);
      const result = await outcome(() =>
        api.PUT('/comments/detail/{id}', { params: { path: { id: comment.id } }, body: { body, modified: comment.modified } }),
      );
      if (result.ok) {
        onSaved(result.data);
        return null;
      }
      if (result.failure.kind === 'conflict') {
        const now = await outcome(() => api.GET('/comments/detail/{id}', { params: { path: { id: comment.id } } }));
        if (now.ok) context.replace(comment, now.data);
        setConflict(result.failure.message);
        return null;
      }
      return result.failure;
    });
  };
  return (
    <form
      class="form comment-form"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      {conflict && (
        <div class="alert" role="alert">
          <p>{conflict} Its text now:</p>
          <Markdown source={comment.body} class="prose comment-body" />
          <p>Save again to replace it with yours, or Cancel to keep it.</p>
        </div>
      )}
      <Field name="body" id={fieldId} label="Edit comment" value={body} onInput={setBody} errors={errors} multiline rows={4} />
      <FormAlert messages={otherErrors(errors, ['body'])} failure={failure} onRetry={() => void submit()} />
      <div class="actions">
        <button type="submit" aria-disabled={busy ? 'true' : undefined}>
          Save
        </button>
        <button type="button" class="secondary" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
