import { listPartitions } from '#lib/db/keys.ts';
import { queryPage, type ListQuery } from '#lib/db/query.ts';
import type { IndexName } from '#lib/db/table.ts';
import { PAGE_SIZES, parsePageRequest, type ListedPage } from '#lib/http/paging.ts';
import type { Input } from '#lib/validation.ts';

export const POST_SORTS = ['newest', 'featured', 'views', 'votes', 'active'] as const;
export type PostSort = (typeof POST_SORTS)[number];

/** `?sort=`: one of POST_SORTS; anything else lists the newest first. */
export function parseSort(value: string | undefined): PostSort {
  return (POST_SORTS as readonly string[]).includes(value ?? '') ? (value as PostSort) : 'newest';
}

const LIST_PARAMS = ['q', 'sort', 'page', 'page_size', 'cursor'] as const;

/**
 * The posts-list parameters: from the query string, each falling back to a form or JSON body of
 * the GET request (the reference service's clients send them there).
 */
export function listParams(query: Record<string, string | undefined>, body: Input): Record<string, string | undefined> {
  const params: Record<string, string | undefined> = {};
  for (const name of LIST_PARAMS) {
    const fromBody = body.data[name];
    const value = query[name] ?? (typeof fromBody === 'string' || typeof fromBody === 'number' ? String(fromBody) : undefined);
    if (value !== undefined) params[name] = value;
  }
  return params;
}

const SORT_INDEXES: Record<PostSort, { index: IndexName; partition: string }> = {
  newest: { index: 'lists', partition: listPartitions.posts },
  featured: { index: 'featured', partition: listPartitions.featured },
  views: { index: 'views', partition: listPartitions.posts },
  votes: { index: 'votes', partition: listPartitions.posts },
  active: { index: 'active', partition: listPartitions.posts },
};

/**
 * GET /posts: published posts in the sort's order, one page; `q` matches title, description,
 * keywords and meta description. Parameters come from the query string or the body.
 */
export async function listPosts(query: Record<string, string | undefined>, body: Input): Promise<ListedPage> {
  const params = listParams(query, body);
  const request = parsePageRequest(params, PAGE_SIZES.posts);
  const sort = parseSort(params.sort);
  // NUL separates the fields inside the search text, so it must not reach the filter (it would
  // match across fields); as DRF's SearchFilter, null characters are stripped from the terms.
  const term = params.q?.replaceAll('\u0000', '');
  const list: ListQuery = {
    ...SORT_INDEXES[sort],
    ...(term
      ? { filter: { expression: 'contains(#search, :q)', names: { '#search': 'search' }, values: { ':q': term.toLowerCase() } } }
      : {}),
  };
  return { params, request, page: await queryPage(list, request) };
}
