import { useEffect, useRef, useState, type Dispatch, type StateUpdater } from 'preact/hooks';
import { api, nextPage, outcome, totalOf, type Comment, type CommentThread, type Failure, type Post } from '../api/client.ts';
import { useModerator, useSavedCheckbox, useSession } from '../hooks.ts';
import { here, loginFor } from '../paths.ts';
import { CommentForm } from './CommentForms.tsx';
import { CommentView, type Context } from './CommentView.tsx';
import { Alert, describe, Problem } from './Problem.tsx';

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

const threadOf = ({ replies, ...comment }: CommentThread): Thread => ({ comment, replies, next: undefined });

/** `a`, then what `b` adds, by id (a page read again may hold comments shown already). */
function merge(a: Comment[], b: Comment[]): Comment[] {
  const seen = new Set(a.map((comment) => comment.id));
  return [...a, ...b.filter((comment) => !seen.has(comment.id))];
}

const published = (comment: Comment | null) => (comment?.status === 'published' ? 1 : 0);
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
        <div class="comments-loading" aria-busy="true" />
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
