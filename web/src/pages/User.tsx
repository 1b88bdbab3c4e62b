import { useEffect, useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { api, outcome, PAGE_SIZE, summaries, type Failure, type Profile } from '../api/client.ts';
import { Content } from '../components/Content.tsx';
import { DateTime } from '../components/DateTime.tsx';
import { ConfirmDialog } from '../components/Dialog.tsx';
import { PostList } from '../components/PostList.tsx';
import { Alert, describe } from '../components/Problem.tsx';
import { useLoad, useModerator, useTitle } from '../hooks.ts';
import { pageNumber, paths, withQuery } from '../paths.ts';
import { readKey } from '../../../lib/site/reads.ts';

/** A link shown only when it is an http(s) address (the profile's website and GitHub are). */
function WebLink({ href }: { href: string }) {
  return /^https?:\/\//i.test(href) ? (
    <a href={href} rel="noopener noreferrer nofollow ugc">
      {href}
    </a>
  ) : (
    <>{href}</>
  );
}

function ProfileFacts({ profile }: { profile: Profile }) {
  const facts: [string, preact.ComponentChildren][] = [];
  if (profile.location) facts.push(['Location', profile.location]);
  if (profile.website) facts.push(['Website', <WebLink href={profile.website} />]);
  if (profile.github) facts.push(['GitHub', <WebLink href={profile.github} />]);
  if (profile.twitter) facts.push(['Twitter', profile.twitter]);
  if (profile.linkedin) facts.push(['LinkedIn', profile.linkedin]);
  if (profile.birth_date) facts.push(['Birth date', profile.birth_date]);
  facts.push(['Joined', <DateTime value={profile.date_joined} />]);
  facts.push(['Posts', profile.total_posts]);
  return (
    <dl class="facts">
      {facts.map(([term, value]) => (
        <div key={term}>
          <dt>{term}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/**
 * To moderators, on another user's profile: whether the user is suspended, and "Suspend" (after a
 * dialog) or "Reinstate". A moderator cannot be suspended: their profile has neither.
 */
function Suspension({ username }: { username: string }) {
  const [suspended, setSuspended] = useState<boolean | null>(null);
  const [asking, setAsking] = useState(false);
  const [failure, setFailure] = useState<Failure | null>(null);
  const [busy, setBusy] = useState(false);
  const [status, setStatus] = useState('');
  const path = { params: { path: { username } } };
  useEffect(() => {
    let current = true;
    outcome(() => api.GET('/users/detail/{username}/suspension', path)).then((result) => {
      if (!current) return;
      if (result.ok) setSuspended(result.data.suspended);
      else setFailure(result.failure);
    });
    return () => {
      current = false;
    };
  }, [username]);

  const change = async (suspend: boolean): Promise<Failure | null> => {
    setBusy(true);
    setFailure(null);
    const result = await outcome(() =>
      suspend ? api.POST('/users/detail/{username}/suspension', path) : api.DELETE('/users/detail/{username}/suspension', path),
    );
    setBusy(false);
    if (!result.ok) return result.failure;
    setSuspended(result.data.suspended);
    setAsking(false);
    setStatus(
      result.data.suspended ? `${username} is suspended: logged out everywhere, and cannot log in.` : `${username} is reinstated: they can log in again.`,
    );
    return null;
  };

  return (
    <div class="suspension">
      {suspended && <p class="badge">Suspended</p>}
      {suspended === false && (
        <button type="button" class="danger" onClick={() => setAsking(true)}>
          Suspend
        </button>
      )}
      {suspended === true && (
        <button
          type="button"
          class="secondary"
          aria-busy={busy ? 'true' : undefined}
          onClick={async () => {
            if (!busy) setFailure(await change(false));
          }}
        >
          Reinstate
        </button>
      )}
      <p role="status">{status}</p>
      {failure && !asking && (
        <Alert>
          <p>{describe(failure)}</p>
        </Alert>
      )}
      {asking && (
        <ConfirmDialog title="Suspend this user?" action="Suspend" onConfirm={() => change(true)} onClose={() => setAsking(false)}>
          <p>{username} will be logged out at once and unable to log in until reinstated. Their profile, posts and comments stay.</p>
        </ConfirmDialog>
      )}
    </div>
  );
}

/** `/users/<username>`: the profile, a link to the favorites, and the user's published posts. */
export default function UserPage({ username }: { username: string }) {
  const { query } = useLocation();
  const page = pageNumber(query.page);
  const profile = useLoad(
    () => outcome(() => api.GET('/users/detail/{username}', { params: { path: { username } } })),
    [username],
    readKey(`/users/detail/${encodeURIComponent(username)}`),
  );
  const list = { page, page_size: PAGE_SIZE, view: 'summary' } as const;
  const posts = useLoad(
    () => summaries(() => api.GET('/posts/author/{username}', { params: { path: { username }, query: list } })),
    [username, page],
    readKey(`/posts/author/${encodeURIComponent(username)}`, list),
  );
  const moderator = useModerator();
  const loaded = profile.state.status === 'done' && profile.state.ok ? profile.state.data : null;
  useTitle(loaded ? loaded.display_name || loaded.user : null);
  return (
    <Content state={profile.state} reload={profile.reload}>
      {(data) => (
        <>
          <h1>{data.display_name || data.user}</h1>
          {data.display_name && <p class="meta">@{data.user}</p>}
          {data.is_moderator && <p class="badge">Moderator</p>}
          {moderator && !data.is_moderator && <Suspension key={data.user} username={data.user} />}
          {data.about_me && <p class="about">{data.about_me}</p>}
          <ProfileFacts profile={data} />
          <p>
            <a href={paths.favorites(data.user)}>Favorites</a> <span class="meta">({data.total_favorites})</span>
          </p>
          <h2>Posts</h2>
          <PostList {...posts} page={page} href={(p) => withQuery(paths.user(username), { page: p > 1 ? p : '' })} empty="No published posts yet." />
        </>
      )}
    </Content>
  );
}
