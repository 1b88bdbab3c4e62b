import type { BatchResult } from '#lib/db/batch.ts';
import type { Key } from '#lib/db/keys.ts';
import { TOTALS, totalKeys, totalOf } from '#lib/db/totals.ts';
import type { ListedPage } from '#lib/pager.ts';
import type { PostRecord } from '#lib/posts/post.ts';
import type { Input } from '#lib/validation.ts';
import { searches, withTotal, type OpenedList } from './list.ts';

// GET /posts: its page is read beside the token (list.ts), and its total from the site's post
// counts, whose shards are read with the token (lib/db/totals.ts).

/** What GET /posts reads with the token: the shards of the site's post counts, unless it searches. */
export function allPostsReads(query: Record<string, string | undefined>, body: Input): Key[] {
  return searches(query, body) ? [] : totalKeys(TOTALS.posts);
}

/** GET /posts: the published posts, with their number (or that of the featured ones). */
export async function allPosts(read: BatchResult, opened: OpenedList): Promise<ListedPage<PostRecord>> {
  return withTotal(await opened.read(), (featuredOnly) => totalOf(read, TOTALS.posts, featuredOnly ? 'featured' : 'posts'));
}
