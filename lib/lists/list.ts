import type { Item } from '#lib/db/batch.ts';
import { postLists } from '#lib/db/keys.ts';
import { cursorStart, queryPage, type ListQuery } from '#lib/db/query.ts';
import type { IndexName } from '#lib/db/table.ts';
import { InvalidPage } from '#lib/errors.ts';
import { PAGE_SIZES, parsePageRequest, type ListedPage, type Page, type PageRequest } from '#lib/pager.ts';
import { readListedPosts } from '#lib/posts/listed.ts';
import type { PostRecord } from '#lib/posts/post.ts';
import { parseView, type PostView } from '#lib/posts/summary.ts';
import { codePoints, QUERY_LIMITS, queryWords } from '#lib/search/words.ts';
import type { Input } from '#lib/validation.ts';
import { parseSort, type PostList, type PostSort } from './post-lists.ts';
import { firstReads, searchPage, type SearchScope } from './search.ts';

// The lists of posts: GET /posts, /posts/tagged/{slug}, /posts/author/{username}, /posts/me.
// Each is a partition of the four post indexes (lib/posts/entries.ts), read in two round trips: the page's
// entries from the index (in parallel with the token check), then the posts' text and stats items
// in one parallel BatchGetItem. A list with `q` finds its posts in the search index instead
// (search.ts).

const LIST_PARAMS = ['q', 'sort', 'page', 'page_size', 'cursor', 'view'] as const;

/**
 * The list parameters (`names`): from the query string, each falling back to a form or JSON body
 * of the GET request (the reference service's clients send them there).
 */
export function listParams(query: Record<string, string | undefined>, body: Input, names: readonly string[] = LIST_PARAMS): Record<string, string | undefined> {
  const params: Record<string, string | undefined> = {};
  for (const name of names) {
    const fromBody = body.data[name];
    const value = query[name] ?? (typeof fromBody === 'string' || typeof fromBody === 'number' || typeof fromBody === 'boolean' ? String(fromBody) : undefined);
    if (value !== undefined) params[name] = value;
  }
  return params;
}

/** Whether a list request searches (a `q` that holds a word): a search has no total. */
export function searches(query: Record<string, string | undefined>, body: Input): boolean {
  return queryWords(listParams(query, body, ['q']).q).length > 0;
}

/**
 * The page with its list's total, unless it is a search's: `count` says how many posts the list
 * holds, or how many of them are featured (`sort=featured`), from counters read in the first round trip.
 */
export function withTotal<T>(listed: ListedPage<T>, count: (featuredOnly: boolean) => number): ListedPage<T> {
  if (queryWords(listed.params.q).length > 0) return listed;
  return { ...listed, total: count(parseSort(listed.params.sort) === 'featured') };
}

const SORT_INDEXES: Record<PostSort, IndexName> = {
  newest: 'postsByCreated',
  featured: 'postsByCreated',
  views: 'postsByViews',
  votes: 'postsByVotes',
  active: 'postsByActive',
};

/** The index query of `list` in `sort` order, filtered where the list is not a partition of its own. */
function listQuery(list: PostList, sort: PostSort): ListQuery {
  const conditions: string[] = [];
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  let partition = list.partition;
  if (sort === 'featured' && list.featuredPartition) partition = list.featuredPartition;
  else if (sort === 'featured') {
    conditions.push('#featured = :featured');
    names['#featured'] = 'is_featured';
    values[':featured'] = true;
  }
  if (list.publishFilter !== undefined) {
    conditions.push('#publish = :publish');
    names['#publish'] = 'publish';
    values[':publish'] = list.publishFilter;
  }
  return {
    index: SORT_INDEXES[sort],
    partition,
    ...(conditions.length > 0 ? { filter: { expression: conditions.join(' AND '), names, values } } : {}),
  };
}

/** Whether a post read for a list belongs on its page. */
function belongs(list: PostList, sort: PostSort, post: PostRecord | undefined, entry: Item): post is PostRecord {
  return post !== undefined && post.id === entry.post_id && list.holds(post) && (sort !== 'featured' || post.is_featured);
}

/** The posts of `entries` in `view`, in order; undefined where a post is gone or no longer belongs. */
async function loadPosts(list: PostList, sort: PostSort, entries: Item[], view: PostView): Promise<(PostRecord | undefined)[]> {
  const read = await readListedPosts(
    entries.map((entry) => String(entry.slug)),
    view,
  );
  return entries.map((entry) => {
    const post = read.get(String(entry.slug));
    return belongs(list, sort, post, entry) ? post : undefined;
  });
}

/** A list request with its first read under way (in parallel with the token check). */
export interface OpenedList {
  /** The page's posts; rejects with the request's error (an invalid page) if it had one. */
  read(): Promise<ListedPage<PostRecord>>;
}

/** A list whose parameters were refused: answered by read(), after the route's own checks (an unknown tag is a 404 first). */
export const refusedList = (error: unknown): OpenedList => ({ read: () => Promise.reject(error) });

/**
 * Opens a list of posts with the parameters of GET /posts (from the query string or the body; a
 * route's own ones in `extra`) and starts its first read: a page of entries, or a search's first
 * wave of them. An invalid page parameter is answered by read(), after the route's own checks.
 */
export function openPostList(list: PostList, query: Record<string, string | undefined>, body: Input, extra: readonly string[] = []): OpenedList {
  let params: Record<string, string | undefined>;
  let request: PageRequest;
  let view: PostView;
  try {
    params = listParams(query, body, [...LIST_PARAMS, ...extra]);
    // A search reads q up to its limit (lib/search/words.ts): so does the Link of its next page.
    if (params.q !== undefined) params.q = codePoints(params.q, QUERY_LIMITS.length);
    view = parseView(params.view);
    request = parsePageRequest(params, PAGE_SIZES.posts);
  } catch (error) {
    return refusedList(error);
  }
  const sort = parseSort(params.sort);
  const index = listQuery(list, sort);
  const words = queryWords(params.q);
  // Started now, awaited by read(): a 401 leaves it unread, so its failure must not go unhandled.
  const started = <T>(step: () => Promise<T>): Promise<T> => {
    const promise = new Promise<T>((resolve) => resolve(step()));
    promise.catch(() => undefined);
    return promise;
  };
  if (words.length === 0) {
    const first = started(() => queryPage(index, request));
    return { read: async () => ({ params, request, page: await postsOfPage(list, sort, await first, view) }) };
  }
  const scope: SearchScope = {
    list,
    sort,
    view,
    index,
    request,
    words,
    entryList: sort === 'featured' && list.featuredPartition ? postLists.featured : list.entry,
  };
  const startOf = (cursor: string | undefined) => (cursor ? cursorStart(index, cursor, words) : undefined);
  const first = started(async () => {
    const start = startOf(request.cursor);
    return { start, reads: await firstReads(scope, start) };
  });
  return {
    read: async () => {
      let { start, reads } = await first;
      let page = await searchPage(scope, reads, start);
      // Page N by number is the N-th page of the search's `Link` chain (a page may be short).
      for (let at = 1; at < request.page && !request.cursor; at++) {
        if (!page.next) throw new InvalidPage();
        start = startOf(page.next);
        reads = await firstReads(scope, start);
        page = await searchPage(scope, reads, start);
      }
      return { params, request, page };
    },
  };
}

/** A page of entries as the page of their posts in `view`; a post that no longer belongs is left out. */
async function postsOfPage(list: PostList, sort: PostSort, page: Page<Item>, view: PostView): Promise<Page<PostRecord>> {
  const posts = await loadPosts(list, sort, page.items, view);
  const kept = posts.flatMap((post, at) => (post ? [{ post, at }] : []));
  return {
    items: kept.map(({ post }) => post),
    ...(page.next ? { next: page.next } : {}),
    cursorAfter: (index) => page.cursorAfter(kept[index]!.at),
  };
}
