import type { BatchResult } from '#lib/db/batch.ts';
import type { Key } from '#lib/db/keys.ts';
import type { ListedPage } from '#lib/pager.ts';
import type { PostRecord } from '#lib/posts/post.ts';
import { profileDetail, profileReads } from '#lib/users/detail.ts';
import type { Input } from '#lib/validation.ts';
import { openPostList, withTotal, type OpenedList } from './list.ts';
import { POST_LISTS } from './post-lists.ts';

/** What GET /posts/author/{username} reads with the token: the profile, which must exist. */
export function authorReads(username: string): Key[] {
  return profileReads(username);
}

/** The first read of the author's list, sent in parallel with the token and the profile. */
export function openAuthored(username: string, query: Record<string, string | undefined>, body: Input): OpenedList {
  return openPostList(POST_LISTS.authored(username), query, body);
}

/** GET /posts/author/{username}: the user's published posts (a deactivated user's too), counted by their profile; an unknown user is 404. */
export async function authoredPosts(username: string, read: BatchResult, opened: OpenedList): Promise<ListedPage<PostRecord>> {
  const profile = profileDetail(read, username);
  return withTotal(await opened.read(), (featuredOnly) => Math.max(0, Number((featuredOnly ? profile.total_featured_posts : profile.total_posts) ?? 0)));
}
