import { useEffect, useRef, useState, type Dispatch, type StateUpdater } from 'preact/hooks';
import { createPortal } from 'preact/compat';
import { useLocation } from 'preact-iso';
import commentsUrl from 'virtual:comments-url';
import { api, outcome, reportBody, summaries, type Failure, type Post as PostData, type ReportReason } from '../api/client.ts';
import { preloadedTagSlugs, tagSlugs } from '../api/tags.ts';
import { Content } from '../components/Content.tsx';
import { DateTime } from '../components/DateTime.tsx';
import { loadRenderer, Markdown } from '../components/Markdown.tsx';
import { Alert, describe, PartFailed, Problem } from '../components/Problem.tsx';
import { ReportDialog } from '../components/ReportDialog.tsx';
import { useLoad, useMetaDescription, useModerator, useSavedCheckbox, useSession, useTitle } from '../hooks.ts';
import { here, loginFor, paths } from '../paths.ts';
import { readKey } from '../../../lib/site/reads.ts';

/** `/posts/<slug>`: one post, its votes and favorite, related posts; Edit and Delete for its author. */
export default function PostPage({ slug }: { slug: string }) {
  // The post and the Markdown renderer at once: the page appears whole (a renderer that failed to load says so in its place).
  const { state, reload } = useLoad(
    async () => {
      const renderer = loadRenderer().catch(() => undefined);
      const post = await outcome(() => api.GET('/posts/detail/{slug}', { params: { path: { slug } } }));
      await renderer;
      return post;
    },
    [slug],
    readKey(`/posts/detail/${encodeURIComponent(slug)}`),
  );
  if (state.status === 'done' && state.ok) return <PostView key={state.data.slug} post={state.data} />;
  return (
    <Content state={state} reload={reload}>
      {() => null}
    </Content>
  );
}

function PostView({ post: read }: { post: PostData }) {
  // The post as its last change left it: comments locked, featured, its count of comments.
  const [post, setPost] = useState(read);
  useTitle(post.title);
  useMetaDescription(post.meta_description?.trim() || null);
  const { username } = useSession();
  const isAuthor = username === post.author;
  const updated = post.modified !== post.created;
  return (
    <article class="post" aria-labelledby="post-title">
      <header>
        <h1 id="post-title">{post.title}</h1>
        <p class="meta">
          {!post.publish && <span class="badge">Draft</span>}
          {post.is_featured && <span class="badge">Featured</span>}
          By <a href={paths.user(post.author)}>{post.author}</a> · Published <DateTime value={post.created} />
          {updated && ' · Updated '}
          {updated && <DateTime value={post.modified} />}
          {` · ${post.total_visitors} ${post.total_visitors === 1 ? 'view' : 'views'}`}
        </p>
        <TagLinks titles={post.tags} />
      </header>
      <Markdown source={post.description} />
      <Reactions post={post} />
      <PostModeration post={post} onChange={setPost} />
      {isAuthor && <AuthorActions post={post} />}
      <CommentsRegion post={post} onChange={setPost} />
      <Related slug={post.slug} />
    </article>
  );
}

function TagLinks({ titles }: { titles: string[] }) {
  const [slugs, setSlugs] = useState<Map<string, string>>(() => preloadedTagSlugs(titles));
  useEffect(() => {
    if (titles.length > 0) tagSlugs(titles).then(setSlugs);
  }, [titles.join('\n')]);
  if (titles.length === 0) return null;
  return (
    <ul class="tag-list" aria-label="Tags">
      {titles.map((title) => {
        const slug = slugs.get(title.toLowerCase());
        return <li key={title}>{slug ? <a href={paths.tag(slug)}>{title}</a> : title}</li>;
      })}
    </ul>
  );
}

type Vote = 'up' | 'down' | null;

/**
 * One request at a time: `run` ignores a task while the last one is under way (a double click
 * sends one request), and `busy` says so to the buttons.
 */
function useOneAtATime(): { busy: boolean; run: (task: () => Promise<void>) => void } {
  const running = useRef(false);
  const [busy, setBusy] = useState(false);
  const run = (task: () => Promise<void>) => {
    if (running.current) return;
    running.current = true;
    setBusy(true);
    void task().finally(() => {
      running.current = false;
      setBusy(false);
    });
  };
  return { busy, run };
}

/** Vote up, Vote down and Favorite: pressed states and counts as the API answers them. */
function Reactions({ post }: { post: PostData }) {
  const { token } = useSession();
  const { route } = useLocation();
  const [vote, setVote] = useState<Vote>(null);
  const [likes, setLikes] = useState(post.rating_likes);
  const [dislikes, setDislikes] = useState(post.rating_dislikes);
  const [favorited, setFavorited] = useState(false);
  const [favorites, setFavorites] = useState(post.total_favorites);
  const [failure, setFailure] = useState<Failure | null>(null);
  const voting = useOneAtATime();
  const favoriting = useOneAtATime();
  // What the API said last, for the next click (the state is rendered a moment later).
  const known = useRef<{ vote: Vote; favorited: boolean }>({ vote: null, favorited: false });
  // Once the person has pressed a button, the state read on arrival is older than what they see.
  const acted = useRef({ vote: false, favorite: false });
  const path = { params: { path: { slug: post.slug } } };

  const showVote = (data: { vote?: Vote; rating_likes: number; rating_dislikes: number }) => {
    known.current.vote = data.vote ?? null;
    setVote(data.vote ?? null);
    setLikes(data.rating_likes);
    setDislikes(data.rating_dislikes);
  };
  const showFavorite = (data: { favorited: boolean; total_favorites: number }) => {
    known.current.favorited = data.favorited;
    setFavorited(data.favorited);
    setFavorites(data.total_favorites);
  };

  useEffect(() => {
    if (!token) {
      known.current = { vote: null, favorited: false };
      setVote(null);
      setFavorited(false);
      return;
    }
    let current = true;
    outcome(() => api.GET('/posts/detail/{slug}/vote', path)).then((result) => {
      if (current && result.ok && !acted.current.vote) showVote(result.data);
    });
    outcome(() => api.GET('/posts/detail/{slug}/favorite', path)).then((result) => {
      if (current && result.ok && !acted.current.favorite) showFavorite(result.data);
    });
    return () => {
      current = false;
    };
  }, [token, post.slug]);

  const needAccount = (): boolean => {
    if (token) return false;
    route(loginFor(here()));
    return true;
  };

  const press = (wanted: 'up' | 'down') =>
    voting.run(async () => {
      if (needAccount()) return;
      acted.current.vote = true;
      setFailure(null);
      const next: Vote = known.current.vote === wanted ? null : wanted;
      const result = await outcome(() =>
        next === null ? api.DELETE('/posts/detail/{slug}/vote', path) : api.POST('/posts/detail/{slug}/vote', { ...path, body: { vote: next } }),
      );
      if (result.ok) showVote(result.data);
      else if (result.failure.kind !== 'unauthorized') setFailure(result.failure);
    });

  const toggleFavorite = () =>
    favoriting.run(async () => {
      if (needAccount()) return;
      acted.current.favorite = true;
      setFailure(null);
      const result = await outcome(() =>
        known.current.favorited ? api.DELETE('/posts/detail/{slug}/favorite', path) : api.POST('/posts/detail/{slug}/favorite', path),
      );
      if (result.ok) showFavorite(result.data);
      else if (result.failure.kind !== 'unauthorized') setFailure(result.failure);
    });

  // While a request is under way its buttons say so and ignore clicks, but keep the focus (no `disabled`).
  const waiting = (busy: boolean) => (busy ? { 'aria-disabled': 'true' as const, 'aria-busy': 'true' as const } : {});
  return (
    <section class="reactions" aria-label="Votes and favorites">
      <div class="reaction">
        <button type="button" aria-pressed={vote === 'up'} {...waiting(voting.busy)} onClick={() => press('up')}>
          Vote up
        </button>
        <span class="count">{likes}</span>
      </div>
      <div class="reaction">
        <button type="button" aria-pressed={vote === 'down'} {...waiting(voting.busy)} onClick={() => press('down')}>
          Vote down
        </button>
        <span class="count">{dislikes}</span>
      </div>
      <div class="reaction">
        <button type="button" aria-pressed={favorited} {...waiting(favoriting.busy)} onClick={toggleFavorite}>
          Favorite
        </button>
        <span class="count">{favorites}</span>
      </div>
      {failure && (
        <Alert>
          <p>{describe(failure)}</p>
        </Alert>
      )}
    </section>
  );
}

/** Edit and Delete; Delete asks first, in a dialog. */
function AuthorActions({ post }: { post: PostData }) {
  const { route } = useLocation();
  const dialog = useRef<HTMLDialogElement>(null);
  const [failure, setFailure] = useState<Failure | null>(null);
  const [busy, setBusy] = useState(false);

  const remove = async () => {
    setBusy(true);
    const result = await outcome(() => api.DELETE('/posts/detail/{slug}', { params: { path: { slug: post.slug } } }));
    setBusy(false);
    if (result.ok || result.failure.kind === 'not-found') {
      dialog.current?.close();
      route(paths.myPosts);
      return;
    }
    setFailure(result.failure);
  };

  return (
    <div class="author-actions">
      <a class="button secondary" href={paths.edit(post.slug)}>
        Edit
      </a>
      <button
        type="button"
        class="danger"
        onClick={() => {
          setFailure(null);
          dialog.current?.showModal();
        }}
      >
        Delete
      </button>
      {createPortal(
        <dialog ref={dialog} aria-labelledby="delete-title" aria-describedby="delete-text">
          <h2 id="delete-title">Delete this post?</h2>
          <p id="delete-text">“{post.title}” will be gone for good, with its votes and favorites.</p>
          {failure && (
            <Alert>
              <p>{describe(failure)}</p>
            </Alert>
          )}
          <div class="actions">
            <button type="button" class="danger" onClick={remove} disabled={busy}>
              Delete
            </button>
            <button type="button" onClick={() => dialog.current?.close()}>
              Cancel
            </button>
          </div>
        </dialog>,
        // Outside main: the dialog is a landmark of its own, its "Delete" is not main's.
        document.body,
      )}
    </div>
  );
}

/**
 * "Featured" (moderators) and "Report post" (logged-in readers of another's post). Featuring
 * changes nothing else of the post: the API neither compares nor refreshes its `modified`.
 */
function PostModeration({ post, onChange }: { post: PostData; onChange: (post: PostData) => void }) {
  const { token, username } = useSession();
  const moderator = useModerator();
  const [reporting, setReporting] = useState(false);
  const [reported, setReported] = useState<string | null>(null);
  const [errors, setErrors] = useState<string[]>([]);
  const [failure, setFailure] = useState<Failure | null>(null);
  const path = { params: { path: { slug: post.slug } } };
  const box = useSavedCheckbox(post.is_featured, async (featured) => {
    setErrors([]);
    setFailure(null);
    const result = await outcome(() => api.PUT('/posts/detail/{slug}', { ...path, body: { is_featured: featured } }));
    if (result.ok) onChange(result.data);
    else if (result.failure.kind === 'invalid') setErrors(result.failure.fields.is_featured ?? (result.failure.message ? [result.failure.message] : []));
    else setFailure(result.failure);
  });
  const canReport = token !== null && username !== post.author;
  if (!moderator && !canReport) return null;

  const send = async (reason: ReportReason | undefined, note: string): Promise<Failure | null> => {
    const result = await outcome(() => api.POST('/posts/detail/{slug}/report', { ...path, body: reportBody(reason, note) }));
    if (!result.ok) return result.failure;
    setReporting(false);
    setReported(result.response.status === 201 ? 'Thank you: your report was sent to the moderators.' : 'You reported this post before.');
    return null;
  };

  return (
    <div class="post-moderation">
      {moderator && (
        <div class="field checkbox">
          <input
            id="post-featured"
            type="checkbox"
            checked={box.checked}
            aria-busy={box.busy ? 'true' : undefined}
            aria-describedby={errors.length > 0 ? 'post-featured-errors' : undefined}
            onChange={box.onChange}
          />
          <label for="post-featured">Featured</label>
          {errors.length > 0 && (
            <ul class="field-errors" id="post-featured-errors">
              {errors.map((message) => (
                <li key={message}>{message}</li>
              ))}
            </ul>
          )}
        </div>
      )}
      {canReport && (
        <button
          type="button"
          class="secondary"
          onClick={() => {
            setReported(null);
            setReporting(true);
          }}
        >
          Report post
        </button>
      )}
      {reported && (
        <p class="success" role="status">
          {reported}
        </p>
      )}
      {failure && (
        <Alert>
          <p>{describe(failure)}</p>
        </Alert>
      )}
      {reporting && <ReportDialog title="Report this post" send={send} onClose={() => setReporting(false)} />}
    </div>
  );
}

type CommentsModule = typeof import('../components/Comments.tsx');
let commentsChunk: Promise<CommentsModule> | undefined;
let commentsFailures = 0;

/** The comments' chunk, loaded once; after a failure, from an address of its own (a browser keeps a failed import). */
function loadComments(): Promise<CommentsModule> {
  commentsChunk ??= (
    commentsFailures === 0
      ? import('../components/Comments.tsx')
      : (import(/* @vite-ignore */ `${commentsUrl}?retry=${commentsFailures}`) as Promise<CommentsModule>)
  ).catch((error: unknown) => {
    commentsFailures += 1;
    commentsChunk = undefined;
    throw error;
  });
  return commentsChunk;
}

/** Resolves when the browser has nothing more urgent to do (at most 2 s later), or at once without requestIdleCallback. */
function whenIdle(): Promise<void> {
  return new Promise((resolve) => {
    if (typeof requestIdleCallback === 'function') requestIdleCallback(() => resolve(), { timeout: 2000 });
    else resolve();
  });
}

/**
 * The region "Comments": its heading at once, with the post; the comments' code (a chunk of its
 * own) and then the comments after the post, in space kept for them, so the post is never delayed
 * and nothing above them moves when they arrive.
 */
function CommentsRegion({ post, onChange }: { post: PostData; onChange: Dispatch<StateUpdater<PostData>> }) {
  const [module, setModule] = useState<CommentsModule | undefined>(undefined);
  const [failed, setFailed] = useState(false);
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    let current = true;
    // The first time, after the post's text (its renderer) and once the browser is idle, so the
    // comments never compete with the post for the network or the main thread.
    const ready = attempt === 0 ? loadRenderer().then(whenIdle, whenIdle) : Promise.resolve();
    void ready.then(loadComments).then(
      (loaded) => current && setModule(() => loaded),
      () => current && setFailed(true),
    );
    return () => {
      current = false;
    };
  }, [attempt]);
  const Comments = module?.Comments;
  return (
    <section class="comments" aria-label="Comments">
      <h2>Comments ({post.total_comments})</h2>
      {Comments ? (
        <Comments post={post} onChange={onChange} />
      ) : failed ? (
        <PartFailed
          subject="The comments"
          onRetry={() => {
            setFailed(false);
            setAttempt((n) => n + 1);
          }}
        />
      ) : (
        <div class="comments-loading" aria-busy="true" />
      )}
    </section>
  );
}

/** The section "Related posts": at most five posts sharing the most tags; a failed load with "Retry". */
function Related({ slug }: { slug: string }) {
  const { state, reload } = useLoad(
    () => summaries(() => api.GET('/posts/detail/{slug}/related', { params: { path: { slug }, query: { view: 'summary' } } })),
    [slug],
  );
  // A refused token is being forgotten, and the list asked again as a visitor.
  const loading = state.status === 'loading' || (!state.ok && state.failure.kind === 'unauthorized' && state.failure.hadToken);
  return (
    <section class="related" aria-labelledby="related-title">
      <h2 id="related-title">Related posts</h2>
      {/* Space kept for the list while it loads, so nothing below it moves. */}
      {loading ? (
        <div class="related-pending" aria-busy="true" />
      ) : !state.ok ? (
        <Problem failure={state.failure} onRetry={reload} />
      ) : state.data.length === 0 ? (
        <p>No related posts</p>
      ) : (
        <ul>
          {state.data.map((related) => (
            <li key={related.slug}>
              <a href={paths.post(related.slug)}>{related.title}</a> <span class="meta">by {related.author}</span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
