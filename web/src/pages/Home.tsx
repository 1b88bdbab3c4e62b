import { useLocation } from 'preact-iso';
import { api, PAGE_SIZE, summaries } from '../api/client.ts';
import { walled } from '../components/Content.tsx';
import { LoginWall } from '../components/Gates.tsx';
import { PostList } from '../components/PostList.tsx';
import { Tabs } from '../components/Tabs.tsx';
import { useLoad, useTitle } from '../hooks.ts';
import { pageNumber, paths, withQuery } from '../paths.ts';
import { readKey } from '../../../lib/site/reads.ts';

const SORTS = [
  { value: 'newest', label: 'Newest' },
  { value: 'featured', label: 'Featured' },
  { value: 'views', label: 'Views' },
  { value: 'votes', label: 'Votes' },
  { value: 'active', label: 'Active' },
] as const;

type Sort = (typeof SORTS)[number]['value'];

/** `/`: the published posts, by the chosen sort, searched with `?q=`, 20 a page. */
export default function Home() {
  const { query } = useLocation();
  const sort: Sort = SORTS.find((s) => s.value === query.sort)?.value ?? 'newest';
  const q = (query.q ?? '').trim();
  const page = pageNumber(query.page);
  const list = { sort, page, page_size: PAGE_SIZE, view: 'summary', ...(q ? { q } : {}) } as const;
  const { state, reload } = useLoad(() => summaries(() => api.GET('/posts', { params: { query: list } })), [sort, q, page], readKey('/posts', list));
  const heading = q ? `Search results for “${q}”` : 'Posts';
  // The login wall names itself.
  useTitle(walled(state) ? null : page > 1 ? `${heading}, page ${page}` : heading);
  const href = (p: number, s: Sort = sort) => withQuery(paths.home, { q, sort: s === 'newest' ? '' : s, page: p > 1 ? p : '' });

  if (walled(state)) return <LoginWall />;
  return (
    <>
      <h1>{heading}</h1>
      <Tabs label="Sort" tabs={SORTS.map((s) => ({ label: s.label, href: href(1, s.value), current: s.value === sort }))} />
      <PostList
        state={state}
        reload={reload}
        page={page}
        href={(p) => href(p)}
        empty={q ? 'No posts match your search.' : sort === 'featured' ? 'No featured posts yet.' : 'No posts yet.'}
      />
    </>
  );
}
