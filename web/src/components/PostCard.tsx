import type { Post } from '../api/client.ts';
import { paths } from '../paths.ts';
import { DateTime } from './DateTime.tsx';

/**
 * A post as the lists show it. Lists ask for `view=summary`: an `excerpt` (plain text) and a
 * reading time in place of the Markdown description.
 */
export type ListedPost = Omit<Post, 'description'> & { description?: string; excerpt?: string; reading_time_minutes?: number };

export function PostCard({ post, showState = false }: { post: ListedPost; showState?: boolean }) {
  const headingId = `post-${post.slug}`;
  return (
    <article class="card" aria-labelledby={headingId}>
      <h2 id={headingId}>
        <a href={paths.post(post.slug)}>{post.title}</a>
      </h2>
      <p class="meta">
        {showState && !post.publish && <span class="badge">Draft</span>}
        {post.is_featured && <span class="badge">Featured</span>}
        By <a href={paths.user(post.author)}>{post.author}</a> · <DateTime value={post.created} />
        {post.reading_time_minutes !== undefined && <> · {post.reading_time_minutes} min read</>}
      </p>
      {post.excerpt && <p class="excerpt">{post.excerpt}</p>}
      {post.tags.length > 0 && (
        <ul class="tag-list" aria-label="Tags">
          {post.tags.map((tag) => (
            <li key={tag}>{tag}</li>
          ))}
        </ul>
      )}
      <p class="counts">
        <span>{post.total_visitors} views</span> <span>{post.rating_likes} up</span> <span>{post.rating_dislikes} down</span>{' '}
        <span>{post.total_favorites} favorites</span>
      </p>
    </article>
  );
}
