import { batchGet, type Item } from '#lib/db/batch.ts';
import { keys } from '#lib/db/keys.ts';
import { cursorAfterItem, cursorStart, queryItems, type ListQuery } from '#lib/db/query.ts';
import { INDEXES } from '#lib/db/table.ts';
import { pageOf, skippedBefore, type Page, type PageRequest } from '#lib/pager.ts';
import { entrySortKeys } from '#lib/posts/entries.ts';
import { readPostsById } from '#lib/posts/listed.ts';
import type { PostRecord } from '#lib/posts/post.ts';
import type { PostView } from '#lib/posts/summary.ts';
import type { Posting } from '#lib/search/postings.ts';
import { matchesQuery, postWords } from '#lib/search/words.ts';
import type { PostList, PostSort } from './post-lists.ts';
import {
  freshCreatedKeys,
  freshInReach,
  membersByEntries,
  pageWindow,
  planRanking,
  rankByEntries,
  rankByPosts,
  rankedPage,
  type Candidate,
  type LeadingEntries,
  type Ranked,
} from './ranking.ts';

// A page of a list with `q` (docs/api.md, endpoint 10's `q`). The posts come from the search
// index (lib/search/find.ts), read in the first round trip with the token and, in the same round, the
// list's entries written in the last FRESH_MS (posts the stream has not indexed yet: a search
// finds a post right after it is written). The page's posts are then read and checked against the
// words and the list, as every list checks what its index said. How the matches rank, and so
// what is read for it, is decided in ranking.ts:
// - `newest` and `featured` order by `created`, which the postings carry: 2 round trips.
// - `views`, `votes` and `active` order by what changes without the text (counts, `modified`),
//   which the postings cannot carry (a count would rewrite every posting of the post). The first
//   round trip also reads the list's first entries in that order (leadingEntries): when the matches
//   among them fill the page, or they are the whole list, they rank the page, whose posts are then
//   read (2 round trips). When the matches are at most two pages, their posts are read at once (2).
//   Else their entries in this list first, then the page's posts (3). Capacity grows with the matches.

/** How far back a search also reads the list's changed entries: well past the stream's lag. */
export const FRESH_MS = 10_000;
/** The most recently changed entries a search reads. */
export const FRESH_LIMIT = 100;

/**
 * How far back a search reads the list's changed entries in its first round trip (at most
 * BACKLOG_LIMIT): those of the last FRESH_MS are read as posts the index may not hold; while the
 * index states a backlog (lib/search/backlog.ts), so are those changed since it fell behind. A
 * search stays complete, in the same round trips, through a backlog of up to this long.
 */
export const BACKLOG_WINDOW_MS = 60_000;

/**
 * The most recently changed entries that read: about 250 bytes each, so at most ~31 RCU, and only
 * as many as the list had changes in the last BACKLOG_WINDOW_MS.
 */
export const BACKLOG_LIMIT = 1_000;

/**
 * How many of the site-wide list's first entries a search by a count or by activity reads beside
 * the postings: about 250 bytes each, so some 30 RCU, the same at every size of the site. A tag's,
 * author's or own list reads its first DynamoDB page instead (up to 1 MB), which grows with its own
 * posts only (`q` on every post list: docs/api.md, endpoints 10 to 13).
 */
export const LEADING_LIMIT = 1_000;

/**
 * Whether a search reads the list's leading entries: to rank by what the postings do not carry
 * (counts, activity), or to tell the list's posts (membersByEntries: the tags, the featured flag).
 */
export const readsLeadingEntries = (list: PostList, sort: PostSort) =>
  sort === 'views' || sort === 'votes' || sort === 'active' || membersByEntries(list, sort);

/** The leading entries of `index`, from where `request`'s cursor starts (an invalid cursor rejects as the page would). */
export async function leadingEntries(index: ListQuery, request: PageRequest, words: readonly string[], sitewide: boolean): Promise<LeadingEntries> {
  const start = request.cursor ? cursorStart(index, request.cursor, words) : undefined;
  const { items, next } = await queryItems(index, sitewide ? LEADING_LIMIT : undefined, start);
  return { items, complete: next === undefined };
}

export interface SearchScope {
  list: PostList;
  sort: PostSort;
  view: PostView;
  /** The list's index query in this sort (its partition, its sort key attribute). */
  index: ListQuery;
  /** The list's entry sort key (keys.postEntry) in this sort: what cursors and entry reads name. */
  entryList: string;
  request: PageRequest;
  words: readonly string[];
}

/** The entries of `index`'s list by their last change (`modified`), where a search finds what the index may not have yet. */
export function freshQuery(index: ListQuery): ListQuery {
  return { ...index, index: 'postsByActive' };
}

/** The page of a search, from the postings and fresh entries read in the first round trip. */
export async function searchPage(scope: SearchScope, postings: Posting[], freshEntries: Item[], leading?: LeadingEntries): Promise<Page<PostRecord>> {
  const { list, sort, view, index, request, words } = scope;
  const sortAttribute = INDEXES[index.index].sortKey;
  const read = new Map<string, PostRecord | undefined>();
  // Posts the index may not have caught up with yet: their words are checked on their text. In
  // summary view the text of the others is not read (its size must not make the page's cost):
  // the index, written well before, says their words.
  const freshIds = new Set(freshEntries.map((entry) => String(entry.post_id)));
  /** Whether a post's words are checked on its text as read. */
  const checked = (id: string) => view === 'full' || freshIds.has(id);

  /** Reads the posts not read yet and keeps those that belong. */
  const readPosts = async (wanted: readonly Candidate[]) => {
    const missing = wanted.filter(({ id }) => !read.has(id));
    if (missing.length === 0) return;
    // A posting names the slug its post had when the posting was written (a rename rewrites only
    // the words it changed): readPostsById finds a post renamed since through its `mine` entry.
    const found = await readPostsById(missing, view, new Set(missing.filter(({ id }) => checked(id)).map(({ id }) => id)));
    for (const { id } of missing) {
      const post = found.get(id);
      const belongs =
        post !== undefined && list.holds(post) && (sort !== 'featured' || post.is_featured) && (!checked(id) || matchesQuery(postWords(post), words));
      read.set(id, belongs ? post : undefined);
    }
  };
  const keyOf = (post: PostRecord) => entrySortKeys(post)[sortAttribute]!;

  const plan = planRanking({ list, sort, sortAttribute, request, postings, freshEntries, ...(leading ? { leading } : {}) });
  const { fresh } = plan;
  let ranked: Ranked[];
  if (plan.by === 'created' || plan.by === 'leading') {
    ranked = plan.ranked;
  } else if (plan.by === 'posts') {
    await readPosts([...plan.matches, ...fresh]);
    ranked = rankByPosts(plan.matches, read, keyOf);
  } else {
    const [entries] = await Promise.all([
      batchGet(
        plan.matches.map(({ id }) => keys.postEntry(id, scope.entryList)),
        undefined,
        { consistent: false },
      ),
      readPosts(fresh),
    ]);
    ranked = rankByEntries(plan.matches, (id) => entries.get(keys.postEntry(id, scope.entryList)), sortAttribute);
  }

  const after = request.cursor ? cursorStart(index, request.cursor, scope.words)[sortAttribute] : undefined;
  let window: ReturnType<typeof pageWindow>;
  let freshRead: readonly Candidate[] = fresh;
  if (plan.by === 'created' && fresh.length > FRESH_LIMIT && skippedBefore(request) === 0) {
    // Behind a backlog (more fresh posts than the fresh window holds): the fresh posts rank by
    // their entries' creation keys, and only those that may reach the page are read, the highest
    // first, in two steps: enough for the page if they match, then, if too few did, the others.
    window = pageWindow(ranked, 0, request, after);
    const boundary = window.window.length > request.pageSize ? window.window.at(-1)!.key : undefined;
    const reach = freshInReach(fresh, freshCreatedKeys(freshEntries), boundary, after);
    const first = reach.slice(0, request.pageSize + 1 + FRESH_LIMIT);
    await readPosts([...window.window, ...first]);
    const matched = first.filter(({ id }) => read.get(id) !== undefined).length;
    freshRead = matched > request.pageSize ? first : reach;
    await readPosts(freshRead);
  } else {
    window = pageWindow(ranked, fresh.length, request, after);
    await readPosts([...window.window, ...fresh]);
  }
  const { posts, hasNext } = rankedPage(window, freshRead, read, keyOf, request, after);
  const cursorOf = ({ post, key }: { post: PostRecord; key: string }) =>
    cursorAfterItem(
      index,
      { ...keys.postEntry(post.id, scope.entryList), [INDEXES[index.index].partitionKey]: index.partition, [sortAttribute]: key },
      scope.words,
    );
  return pageOf(request, posts, hasNext, cursorOf, ({ post }) => post);
}
