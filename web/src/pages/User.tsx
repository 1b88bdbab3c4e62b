import { useLocation } from 'preact-iso';
import { api, outcome, PAGE_SIZE, summaries, type Profile } from '../api/client.ts';
import { Content } from '../components/Content.tsx';
import { DateTime } from '../components/DateTime.tsx';
import { PostList } from '../components/PostList.tsx';
import { useLoad, useTitle } from '../hooks.ts';
import { pageNumber, paths, withQuery } from '../paths.ts';

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

/** `/users/<username>`: the profile, a link to the favorites, and the user's published posts. */
export default function UserPage({ username }: { username: string }) {
  const { query } = useLocation();
  const page = pageNumber(query.page);
  const profile = useLoad(() => outcome(() => api.GET('/users/detail/{username}', { params: { path: { username } } })), [username]);
  const posts = useLoad(
    () => summaries(() => api.GET('/posts/author/{username}', { params: { path: { username }, query: { page, page_size: PAGE_SIZE, view: 'summary' } } })),
    [username, page],
  );
  const loaded = profile.state.status === 'done' && profile.state.ok ? profile.state.data : null;
  useTitle(loaded ? loaded.display_name || loaded.user : null);
  return (
    <Content state={profile.state} reload={profile.reload}>
      {(data) => (
        <>
          <h1>{data.display_name || data.user}</h1>
          {data.display_name && <p class="meta">@{data.user}</p>}
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
