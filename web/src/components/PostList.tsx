import { hasNextPage, PAGE_SIZE, totalOf, type PostSummary } from '../api/client.ts';
import type { Loaded } from '../hooks.ts';
import { Content } from './Content.tsx';
import { Pagination } from './Pagination.tsx';
import { PostCard } from './PostCard.tsx';

interface Props {
  state: Loaded<PostSummary[]>;
  reload: () => void;
  page: number;
  href: (page: number) => string;
  empty: string;
  /** Mark drafts (the caller's own lists). */
  showState?: boolean;
}

/** One page of a list of posts, 20 a page, with its pagination. */
export function PostList({ state, reload, page, href, empty, showState = false }: Props) {
  return (
    <Content
      state={state}
      reload={reload}
      notFound={() =>
        page > 1 ? (
          <p>
            There is no page {page} of this list. <a href={href(1)}>Go to the first page</a>
          </p>
        ) : (
          <p>Not found.</p>
        )
      }
    >
      {(posts, response) =>
        posts.length === 0 ? (
          <p class="empty">{empty}</p>
        ) : (
          <>
            <div class="cards">
              {posts.map((post) => (
                <PostCard key={post.slug} post={post} showState={showState} />
              ))}
            </div>
            <Pagination page={page} total={totalOf(response)} pageSize={PAGE_SIZE} hasNext={hasNextPage(response)} href={href} />
          </>
        )
      }
    </Content>
  );
}
