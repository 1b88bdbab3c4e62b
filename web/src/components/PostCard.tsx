import type { PostSummary } from '../api/client.ts';
import { paths } from '../paths.ts';
import { DateTime } from './DateTime.tsx';

/** A post in a list: title (linking to the post), author, date, reading time, excerpt, tags and counts. */
export function PostCard({ post, showState = false }: { post: PostSummary; showState?: boolean }) {
  const headingId = `post-${post.slug}`;
  return (
    <article class="card" aria-labelledby={headingId}>
      <h2 id={headingId}>
        <a href={paths.post(post.slug)}>{post.title}</a>
      </h2>
      <p class="meta">
        {showState && !post.publish && <span class="badge">Draft</span>}
        {post.is_featured && <span class="badge">Featured</span>}
        By <a href={paths.user(post.author)}>{post.author}</a> · <DateTime value={post.created} /> · {post.reading_time_minutes} min read
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
        <span>{post.total_favorites} favorites</span> <span>{post.total_comments === 1 ? '1 comment' : `${post.total_comments} comments`}</span>
      </p>
    </article>
  );
}
