import { useEffect, useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { api, hasNextPage, outcome, totalOf } from '../api/client.ts';
import { Content, walled } from '../components/Content.tsx';
import { LoginWall } from '../components/Gates.tsx';
import { Pagination } from '../components/Pagination.tsx';
import { useLoad, useTitle } from '../hooks.ts';
import { pageNumber, paths, withQuery } from '../paths.ts';
import { readKey, TAGS_PAGE_SIZE } from '../../../lib/site/reads.ts';

const TAGS_PER_PAGE = TAGS_PAGE_SIZE;

/** `/tags`: every tag with its number of posts, filtered by a part of the title (`?q=`). */
export default function Tags() {
  const { query, route } = useLocation();
  const q = (query.q ?? '').trim();
  const page = pageNumber(query.page);
  const [text, setText] = useState(q);
  useEffect(() => setText(q), [q]);
  const list = { page, page_size: TAGS_PER_PAGE, ...(q ? { q } : {}) };
  const { state, reload } = useLoad(() => outcome(() => api.GET('/tags', { params: { query: list } })), [q, page], readKey('/tags', list));
  useTitle(walled(state) ? null : 'Tags');
  const href = (p: number) => withQuery(paths.tags, { q, page: p > 1 ? p : '' });

  if (walled(state)) return <LoginWall />;
  return (
    <>
      <h1>Tags</h1>
      {/* A filter, not a second search landmark: the site's search stays the one "Search". */}
      <form
        class="inline-form"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          route(withQuery(paths.tags, { q: text.trim() }));
        }}
      >
        <label for="tag-filter">Filter tags</label>
        <input id="tag-filter" type="text" value={text} onInput={(event) => setText(event.currentTarget.value)} />
        <button type="submit">Filter</button>
      </form>
      <Content state={state} reload={reload}>
        {(tags, response) =>
          tags.length === 0 ? (
            <p class="empty">{q ? 'No tag matches.' : 'No tags yet.'}</p>
          ) : (
            <>
              <ul class="tag-cloud">
                {tags.map((tag) => (
                  <li key={tag.slug}>
                    <a href={paths.tag(tag.slug)}>{tag.title}</a>{' '}
                    <span class="meta">
                      {tag.total_posts} {tag.total_posts === 1 ? 'post' : 'posts'}
                    </span>
                  </li>
                ))}
              </ul>
              <Pagination page={page} total={totalOf(response)} pageSize={TAGS_PER_PAGE} hasNext={hasNextPage(response)} href={href} />
            </>
          )
        }
      </Content>
    </>
  );
}
