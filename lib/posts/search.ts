import { batchGet, type Item } from '#lib/db/batch.ts';
import { keys, listSortKeys } from '#lib/db/keys.ts';
import { cursorAfterItem, cursorStart, queryItems, type ListQuery, type Page, type PageRequest } from '#lib/db/query.ts';
import { INDEXES } from '#lib/db/table.ts';
import { InvalidPage } from '#lib/errors.ts';
import type { Posting } from '#lib/search/postings.ts';
import { matchesQuery, postWords } from '#lib/search/words.ts';
import { entrySortKeys } from './entries.ts';
import type { PostList, PostSort } from './list.ts';
import { postFromRead, postKeys, type PostRecord } from './post.ts';

// A page of a list with `q` (decisions.md, "Search"). The posts come from the search index
// (lib/search/find.ts), read in the first round trip with the token and, in the same round, the
// list's entries written in the last FRESH_MS (posts the stream has not indexed yet: a search
// finds a post right after it is written). The page's posts are then read and checked against the
// words and the list, as every list checks what its index said.
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
 * How many of the site-wide list's first entries a search by a count or by activity reads beside
 * the postings: about 250 bytes each, so some 30 RCU, the same at every size of the site. A tag's,
 * author's or own list reads its first DynamoDB page instead (up to 1 MB), which grows with its own
 * posts only (v1.1, section 1).
 */
export const LEADING_LIMIT = 1_000;

/** The first entries of a list in its order (from the page's cursor), as the first round trip reads them. */
export interface LeadingEntries {
  items: Item[];
  /** Whether they reach the end of the list. */
  complete: boolean;
}

/** Whether a search in `sort` ranks by what the postings do not carry, and so reads the list's leading entries. */
export const ranksByEntries = (sort: PostSort) => sort === 'views' || sort === 'votes' || sort === 'active';

/** The leading entries of `index`, from where `request`'s cursor starts (an invalid cursor rejects as the page would). */
export async function leadingEntries(index: ListQuery, request: PageRequest, words: readonly string[], sitewide: boolean): Promise<LeadingEntries> {
  const start = request.cursor ? cursorStart(index, request.cursor, words) : undefined;
  const { items, next } = await queryItems(index, sitewide ? LEADING_LIMIT : undefined, start);
  return { items, complete: next === undefined };
}

export interface SearchScope {
  list: PostList;
  sort: PostSort;
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

interface Ranked {
  id: string;
  slug: string;
  key: string;
}

/** A post's rank as its entry in the list states it: the entry's slug and its sort key. */
const entryRank = (entry: Item, sortAttribute: string): Ranked => ({ id: String(entry.post_id), slug: String(entry.slug), key: String(entry[sortAttribute]) });

const byKeyDescending = (a: { key: string }, b: { key: string }) => (a.key < b.key ? 1 : a.key > b.key ? -1 : 0);

/** The page of a search, from the postings and fresh entries read in the first round trip. */
export async function searchPage(scope: SearchScope, postings: Posting[], freshEntries: Item[], leading?: LeadingEntries): Promise<Page<PostRecord>> {
  const { list, sort, index, request, words } = scope;
  const sortAttribute = INDEXES[index.index].sortKey;
  const read = new Map<string, PostRecord | undefined>();

  /** Reads the posts not read yet (text and stats, eventually consistent as the index) and keeps those that belong. */
  const readPosts = async (wanted: { id: string; slug: string }[]) => {
    const missing = wanted.filter(({ id }) => !read.has(id));
    if (missing.length === 0) return;
    const result = await batchGet(missing.flatMap(({ slug }) => postKeys(slug)), undefined, { consistent: false });
    for (const { id, slug } of missing) {
      const post = postFromRead(result, slug);
      const belongs = post !== undefined && post.id === id && list.holds(post) && (sort !== 'featured' || post.is_featured) && matchesQuery(postWords(post), words);
      read.set(id, belongs ? post : undefined);
    }
  };
  const keyOf = (post: PostRecord) => entrySortKeys(post)[sortAttribute]!;

  // A fresh entry knows the post's current slug: the postings of a post just renamed name the old one.
  const freshSlugs = new Map(freshEntries.map((entry) => [String(entry.post_id), String(entry.slug)]));
  const matches = postings
    .filter((posting) => list.holds(posting) && (sort !== 'featured' || posting.is_featured))
    .map((posting) => ({ ...posting, slug: freshSlugs.get(posting.post_id) ?? posting.slug }));
  const indexed = new Set(matches.map((posting) => posting.post_id));
  const fresh = [...freshSlugs].filter(([id]) => !indexed.has(id)).map(([id, slug]) => ({ id, slug }));

  const skipped = request.cursor ? 0 : (request.page - 1) * request.pageSize;
  const leadingRanks = (leading?.items ?? []).filter((entry) => indexed.has(String(entry.post_id))).map((entry) => entryRank(entry, sortAttribute));
  // The matches among the list's leading entries fill the page and one more, or are all of them:
  // a match beyond those entries ranks below every one of them.
  const leadingRanksSuffice = leading !== undefined && (leading.complete || leadingRanks.length > skipped + request.pageSize);
  let ranked: Ranked[];
  if (sortAttribute === INDEXES.postsByCreated.sortKey) {
    ranked = matches.map((posting) => ({ id: posting.post_id, slug: posting.slug, key: listSortKeys.postCreated(posting.created, posting.post_id) }));
  } else if (matches.length + fresh.length <= 2 * (request.pageSize + 1)) {
    await readPosts([...matches.map((posting) => ({ id: posting.post_id, slug: posting.slug })), ...fresh]);
    ranked = matches.flatMap(({ post_id: id }) => {
      const post = read.get(id);
      return post ? [{ id, slug: post.slug, key: keyOf(post) }] : [];
    });
  } else if (leadingRanksSuffice) {
    ranked = leadingRanks;
  } else {
    const [entries] = await Promise.all([
      batchGet(matches.map((posting) => keys.postEntry(posting.post_id, scope.entryList)), undefined, { consistent: false }),
      readPosts(fresh),
    ]);
    ranked = matches.flatMap(({ post_id: id }) => {
      const entry = entries.get(keys.postEntry(id, scope.entryList));
      return entry ? [entryRank(entry, sortAttribute)] : [];
    });
  }
  ranked.sort(byKeyDescending);

  // Where the page starts: after the cursor's key, or after the pages before it by number. Fresh
  // posts not in the index may rank anywhere, so the posts read reach back by as many as there
  // are; the ranks before those are taken as the index gives them.
  const after = request.cursor ? cursorStart(index, request.cursor, scope.words)[sortAttribute] : undefined;
  if (after !== undefined) ranked = ranked.filter(({ key }) => key < after);
  const from = Math.max(0, skipped - fresh.length);
  const window = ranked.slice(from, skipped + request.pageSize + 1);
  await readPosts([...window, ...fresh]);

  const ranks: { key: string; post?: PostRecord }[] = ranked.slice(0, from).map(({ key }) => ({ key }));
  const seen = new Set<string>();
  for (const { id } of [...window, ...fresh]) {
    const post = read.get(id);
    if (!post || seen.has(id)) continue;
    seen.add(id);
    const key = keyOf(post);
    if (after === undefined || key < after) ranks.push({ key, post });
  }
  ranks.sort(byKeyDescending);
  const page = ranks.slice(skipped, skipped + request.pageSize).flatMap(({ key, post }) => (post ? [{ key, post }] : []));
  if (page.length === 0 && (request.page > 1 || request.cursor)) throw new InvalidPage();
  const hasNext = ranks.length > skipped + request.pageSize || ranked.length > skipped + request.pageSize + 1;
  const cursorAfter = (at: number) => {
    const { post, key } = page[at]!;
    return cursorAfterItem(index, { ...keys.postEntry(post.id, scope.entryList), [INDEXES[index.index].partitionKey]: index.partition, [sortAttribute]: key }, scope.words);
  };
  return {
    items: page.map(({ post }) => post),
    ...(hasNext && page.length > 0 ? { next: cursorAfter(page.length - 1) } : {}),
    cursorAfter,
  };
}
