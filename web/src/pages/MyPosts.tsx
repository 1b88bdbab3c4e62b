import { useLocation } from 'preact-iso';
import { api, PAGE_SIZE, summaries } from '../api/client.ts';
import { RequireAccount } from '../components/Gates.tsx';
import { PostList } from '../components/PostList.tsx';
import { Tabs } from '../components/Tabs.tsx';
import { useLoad, useTitle } from '../hooks.ts';
import { pageNumber, paths, withQuery } from '../paths.ts';

const FILTERS = [
  { label: 'All', publish: '' },
  { label: 'Published', publish: 'true' },
  { label: 'Drafts', publish: 'false' },
] as const;

/** `/me/posts`: the caller's own posts, drafts included, with All, Published and Drafts. */
export default function MyPosts() {
  return (
    <RequireAccount>
      <MyPostList />
    </RequireAccount>
  );
}

function MyPostList() {
  const { query } = useLocation();
  const filter = FILTERS.find((f) => f.publish === query.publish) ?? FILTERS[0];
  const page = pageNumber(query.page);
  const posts = useLoad(
    () =>
      summaries(() =>
        api.GET('/posts/me', { params: { query: { page, page_size: PAGE_SIZE, view: 'summary', ...(filter.publish ? { publish: filter.publish } : {}) } } }),
      ),
    [filter.publish, page],
  );
  const heading = filter.label === 'All' ? 'My posts' : `My posts: ${filter.label.toLowerCase()}`;
  useTitle(heading);
  const href = (p: number, publish: string = filter.publish) => withQuery(paths.myPosts, { publish, page: p > 1 ? p : '' });
  return (
    <>
      <h1>{heading}</h1>
      <Tabs label="Show" tabs={FILTERS.map((f) => ({ label: f.label, href: href(1, f.publish), current: f === filter }))} />
      <PostList {...posts} page={page} href={(p) => href(p)} empty={filter.publish === 'false' ? 'No drafts.' : 'No posts yet. Write one!'} showState />
    </>
  );
}
