import { useLocation } from 'preact-iso';
import { api, outcome, PAGE_SIZE, summaries } from '../api/client.ts';
import { Content } from '../components/Content.tsx';
import { PostList } from '../components/PostList.tsx';
import { useLoad, useTitle } from '../hooks.ts';
import { pageNumber, paths, withQuery } from '../paths.ts';

/** `/users/<username>/favorites`: the posts the user holds as favorites, newest favorite first. */
export default function Favorites({ username }: { username: string }) {
  const { query } = useLocation();
  const page = pageNumber(query.page);
  const posts = useLoad(
    () =>
      summaries(() =>
        api.GET('/users/detail/{username}/favorites', { params: { path: { username }, query: { page, page_size: PAGE_SIZE, view: 'summary' } } }),
      ),
    [username, page],
  );
  // The profile first: an unknown user is "Page not found".
  const profile = useLoad(() => outcome(() => api.GET('/users/detail/{username}', { params: { path: { username } } })), [username]);
  useTitle(profile.state.status === 'done' && profile.state.ok ? `Favorites of ${username}` : null);
  return (
    <Content state={profile.state} reload={profile.reload}>
      {() => (
        <>
          <h1>Favorites of {username}</h1>
          <p>
            <a href={paths.user(username)}>Back to the profile of {username}</a>
          </p>
          <PostList {...posts} page={page} href={(p) => withQuery(paths.favorites(username), { page: p > 1 ? p : '' })} empty="No favorites yet." showState />
        </>
      )}
    </Content>
  );
}
