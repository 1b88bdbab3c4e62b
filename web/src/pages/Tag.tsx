import { useLocation } from 'preact-iso';
import { api, outcome, PAGE_SIZE, summaries } from '../api/client.ts';
import { Content } from '../components/Content.tsx';
import { PostList } from '../components/PostList.tsx';
import { useLoad, useTitle } from '../hooks.ts';
import { pageNumber, paths, withQuery } from '../paths.ts';
import { readKey } from '../../../lib/site/reads.ts';

/** `/tags/<slug>`: one tag's published posts, newest first. */
export default function TagPage({ slug }: { slug: string }) {
  const { query } = useLocation();
  const page = pageNumber(query.page);
  const tag = useLoad(
    () => outcome(() => api.GET('/tags/detail/{slug}', { params: { path: { slug } } })),
    [slug],
    readKey(`/tags/detail/${encodeURIComponent(slug)}`),
  );
  const list = { page, page_size: PAGE_SIZE, view: 'summary' } as const;
  const posts = useLoad(
    () => summaries(() => api.GET('/posts/tagged/{slug}', { params: { path: { slug }, query: list } })),
    [slug, page],
    readKey(`/posts/tagged/${encodeURIComponent(slug)}`, list),
  );
  const title = tag.state.status === 'done' && tag.state.ok ? tag.state.data.title : null;
  useTitle(title ? `Posts tagged “${title}”` : null);
  return (
    <Content state={tag.state} reload={tag.reload}>
      {(data) => (
        <>
          <h1>Posts tagged “{data.title}”</h1>
          <p class="meta">
            {data.total_posts} {data.total_posts === 1 ? 'post' : 'posts'} ·{' '}
            <a href={`/api/v1/feed?tag=${encodeURIComponent(data.slug)}`}>RSS feed of this tag</a>
          </p>
          <PostList {...posts} page={page} href={(p) => withQuery(paths.tag(slug), { page: p > 1 ? p : '' })} empty="No posts carry this tag yet." />
        </>
      )}
    </Content>
  );
}
