import { useEffect, useRef, useState } from 'preact/hooks';
import { createPortal } from 'preact/compat';
import { useLocation } from 'preact-iso';
import { api, outcome, summaries, type Failure, type Post as PostData, type PostSummary } from '../api/client.ts';
import { tagSlugs } from '../api/tags.ts';
import { Content } from '../components/Content.tsx';
import { DateTime } from '../components/DateTime.tsx';
import { loadRenderer, Markdown } from '../components/Markdown.tsx';
import { Alert, describe } from '../components/Problem.tsx';
import { useLoad, useMetaDescription, useSession, useTitle } from '../hooks.ts';
import { here, loginFor, paths } from '../paths.ts';

/** `/posts/<slug>`: one post, its votes and favorite, related posts; Edit and Delete for its author. */
export default function PostPage({ slug }: { slug: string }) {
  // The post and the Markdown renderer at once: the page appears whole.
  const { state, reload } = useLoad(async () => {
    const [post] = await Promise.all([outcome(() => api.GET('/posts/detail/{slug}', { params: { path: { slug } } })), loadRenderer().catch(() => undefined)]);
    return post;
  }, [slug]);
  if (state.status === 'done' && state.ok) return <PostView key={state.data.slug} post={state.data} />;
  return <Content state={state} reload={reload} children={() => null} />;
}

function PostView({ post }: { post: PostData }) {
  useTitle(post.title);
  useMetaDescription(post.meta_description?.trim() || null);
  const { username } = useSession();
  const isAuthor = username === post.author;
  return (
    <article class="post" aria-labelledby="post-title">
      <header>
        <h1 id="post-title">{post.title}</h1>
        <p class="meta">
          {!post.publish && <span class="badge">Draft</span>}
          {post.is_featured && <span class="badge">Featured</span>}
          By <a href={paths.user(post.author)}>{post.author}</a> · Published <DateTime value={post.created} />
          {post.modified !== post.created && (
            <>
              {' '}
              · Updated <DateTime value={post.modified} />
            </>
          )}{' '}
          · {post.total_visitors} {post.total_visitors === 1 ? 'view' : 'views'}
        </p>
        <TagLinks titles={post.tags} />
      </header>
      <Markdown source={post.description} />
      <Reactions post={post} />
      {isAuthor && <AuthorActions post={post} />}
      <Related slug={post.slug} />
    </article>
  );
}

function TagLinks({ titles }: { titles: string[] }) {
  const [slugs, setSlugs] = useState<Map<string, string>>(new Map());
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

/** Vote up, Vote down and Favorite: pressed state from the API, counts changed at once. */
function Reactions({ post }: { post: PostData }) {
  const { token } = useSession();
  const { route } = useLocation();
  const [vote, setVote] = useState<Vote>(null);
  const [likes, setLikes] = useState(post.rating_likes);
  const [dislikes, setDislikes] = useState(post.rating_dislikes);
  const [favorited, setFavorited] = useState(false);
  const [favorites, setFavorites] = useState(post.total_favorites);
  const [failure, setFailure] = useState<Failure | null>(null);
  // Once the person has pressed a button, the state read on arrival is older than what they see.
  const acted = useRef({ vote: false, favorite: false });
  const path = { params: { path: { slug: post.slug } } };

  useEffect(() => {
    if (!token) {
      setVote(null);
      setFavorited(false);
      return;
    }
    let current = true;
    outcome(() => api.GET('/posts/detail/{slug}/vote', path)).then((result) => {
      if (current && result.ok && !acted.current.vote) {
        setVote(result.data.vote ?? null);
        setLikes(result.data.rating_likes);
        setDislikes(result.data.rating_dislikes);
      }
    });
    outcome(() => api.GET('/posts/detail/{slug}/favorite', path)).then((result) => {
      if (current && result.ok && !acted.current.favorite) {
        setFavorited(result.data.favorited);
        setFavorites(result.data.total_favorites);
      }
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

  const press = async (wanted: 'up' | 'down') => {
    if (needAccount()) return;
    acted.current.vote = true;
    setFailure(null);
    const before = { vote, likes, dislikes };
    const next: Vote = vote === wanted ? null : wanted;
    // At once: the person sees their vote counted; the API's answer then sets the exact counts.
    setVote(next);
    setLikes(likes - (vote === 'up' ? 1 : 0) + (next === 'up' ? 1 : 0));
    setDislikes(dislikes - (vote === 'down' ? 1 : 0) + (next === 'down' ? 1 : 0));
    const result = await outcome(() =>
      next === null ? api.DELETE('/posts/detail/{slug}/vote', path) : api.POST('/posts/detail/{slug}/vote', { ...path, body: { vote: next } }),
    );
    if (result.ok) {
      setVote(result.data.vote ?? null);
      setLikes(result.data.rating_likes);
      setDislikes(result.data.rating_dislikes);
    } else {
      setVote(before.vote);
      setLikes(before.likes);
      setDislikes(before.dislikes);
      if (result.failure.kind !== 'unauthorized') setFailure(result.failure);
    }
  };

  const toggleFavorite = async () => {
    if (needAccount()) return;
    acted.current.favorite = true;
    setFailure(null);
    const before = { favorited, favorites };
    setFavorited(!favorited);
    setFavorites(favorites + (favorited ? -1 : 1));
    const result = await outcome(() => (favorited ? api.DELETE('/posts/detail/{slug}/favorite', path) : api.POST('/posts/detail/{slug}/favorite', path)));
    if (result.ok) {
      setFavorited(result.data.favorited);
      setFavorites(result.data.total_favorites);
    } else {
      setFavorited(before.favorited);
      setFavorites(before.favorites);
      if (result.failure.kind !== 'unauthorized') setFailure(result.failure);
    }
  };

  return (
    <section class="reactions" aria-label="Votes and favorites">
      <div class="reaction">
        <button type="button" aria-pressed={vote === 'up'} onClick={() => press('up')}>
          Vote up
        </button>
        <span class="count">{likes}</span>
      </div>
      <div class="reaction">
        <button type="button" aria-pressed={vote === 'down'} onClick={() => press('down')}>
          Vote down
        </button>
        <span class="count">{dislikes}</span>
      </div>
      <div class="reaction">
        <button type="button" aria-pressed={favorited} onClick={toggleFavorite}>
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

/** The section "Related posts": at most five posts sharing the most tags. */
function Related({ slug }: { slug: string }) {
  const { state } = useLoad(() => summaries(() => api.GET('/posts/detail/{slug}/related', { params: { path: { slug }, query: { view: 'summary' } } })), [slug]);
  const posts: PostSummary[] = state.status === 'done' && state.ok ? state.data : [];
  return (
    <section class="related" aria-labelledby="related-title">
      <h2 id="related-title">Related posts</h2>
      {state.status === 'loading' ? (
        <p>Loading…</p>
      ) : posts.length === 0 ? (
        <p>No related posts</p>
      ) : (
        <ul>
          {posts.map((related) => (
            <li key={related.slug}>
              <a href={paths.post(related.slug)}>{related.title}</a> <span class="meta">by {related.author}</span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
