import type { BatchResult } from '#lib/db/batch.ts';
import type { Key } from '#lib/db/keys.ts';
import type { ListedPage } from '#lib/pager.ts';
import type { PostRecord } from '#lib/posts/post.ts';
import { tagDetail, tagDetailReads } from '#lib/tags/detail.ts';
import { taggedTotal } from '#lib/tags/tag.ts';
import type { Input } from '#lib/validation.ts';
import { openPostList, withTotal, type OpenedList } from './list.ts';
import { POST_LISTS } from './post-lists.ts';

/** What GET /posts/tagged/{slug} reads with the token: the tag, which must exist. */
export function taggedReads(slug: string): Key[] {
  return tagDetailReads(slug);
}

/** The first read of the tag's list, sent in parallel with the token and the tag. */
export function openTagged(slug: string, query: Record<string, string | undefined>, body: Input): OpenedList {
  return openPostList(POST_LISTS.tagged(slug), query, body);
}

/** GET /posts/tagged/{slug}: the published posts carrying the tag, with the tag's count of them; an unknown tag is 404. */
export async function taggedPosts(slug: string, read: BatchResult, opened: OpenedList): Promise<ListedPage<PostRecord>> {
  const tag = tagDetail(read, slug);
  return withTotal(await opened.read(), (featuredOnly) => taggedTotal(tag, featuredOnly));
}
