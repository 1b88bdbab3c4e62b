import type { Item } from '#lib/db/batch.ts';
import { listSortKeys, postCreatedOfActive } from '#lib/db/keys.ts';
import { INDEXES } from '#lib/db/table.ts';
import { skippedBefore, type PageRequest } from '#lib/pager.ts';
import type { PostRecord } from '#lib/posts/post.ts';
import type { Posting } from '#lib/search/postings.ts';
import type { PostList, PostSort } from './post-lists.ts';

// How a search ranks its matches in the list's order, as pure decisions on what the first round
// trip read: search.ts does the reads these decisions ask for. The order comes from one of four
// sources (docs/api.md, "Search"):
// - `created`: the list's order is the posts' creation, which the postings carry;
// - `posts`: few matches (at most two pages and one): their posts are read, and rank by themselves;
// - `leading`: the matches among the list's leading entries fill the page and one more, or those
//   entries are the whole list: a match beyond them ranks below every one of them;
// - `entries`: else the matches' entries in the list are read, and rank by their sort keys.
// The fresh entries (posts the index may not hold yet) are read in every case and rank by themselves.

/** A post a search may show: its id and the slug its items are read by. */
export interface Candidate {
  id: string;
  slug: string;
}

/** A post's place in the list's order: the higher key first. */
export interface Ranked extends Candidate {
  key: string;
}

/** The first entries of a list in its order (from the page's cursor), as the first round trip reads them. */
export interface LeadingEntries {
  items: Item[];
  /** Whether they reach the end of the list. */
  complete: boolean;
}

/** What the first round trip of a search read, and what it asks for. */
export interface RankingInput {
  list: PostList;
  sort: PostSort;
  /** The sort key attribute of the list's index in this sort. */
  sortAttribute: string;
  request: PageRequest;
  /** The postings of the words: the posts the index holds that carry them all. */
  postings: readonly Posting[];
  /** The list's entries changed in the last moments (some perhaps not indexed yet). */
  freshEntries: readonly Item[];
  /** The list's leading entries, for a sort the postings do not carry. */
  leading?: LeadingEntries;
}

/** How the matches rank, and what must be read for it. `fresh`: the posts found only among the fresh entries, always read. */
export type RankingPlan = (
  | { by: 'created'; ranked: Ranked[] }
  | { by: 'leading'; ranked: Ranked[] }
  /** Read the posts of `matches` (and the fresh ones): they rank by themselves (rankByPosts). */
  | { by: 'posts'; matches: Candidate[] }
  /** Read the entries of `matches` in the list (and the fresh posts): they rank by them (rankByEntries). */
  | { by: 'entries'; matches: Candidate[] }
) & { fresh: Candidate[] };

/** A post's rank as its entry in the list states it: the entry's slug and its sort key. */
export const entryRank = (entry: Item, sortAttribute: string): Ranked => ({
  id: String(entry.post_id),
  slug: String(entry.slug),
  key: String(entry[sortAttribute]),
});

/** Orders ranks by key, the highest first; equal keys keep their order. */
export const byKeyDescending = (a: { key: string }, b: { key: string }) => (a.key < b.key ? 1 : a.key > b.key ? -1 : 0);

/**
 * Whether the posts of a search in `list` and `sort` are told by the list's entries: the postings
 * carry neither the tags nor the featured flag (a change of either writes no posting), so a tag's
 * list and every `sort=featured` read their leading entries, the list's posts in this order.
 */
export const membersByEntries = (list: PostList, sort: PostSort) => list.membersByEntries === true || sort === 'featured';

/** How the matches of a search rank, decided from what the first round trip read (no I/O). */
export function planRanking(input: RankingInput): RankingPlan {
  const { list, sort, sortAttribute, request, postings, freshEntries, leading } = input;
  // A fresh entry knows the post's current slug: the postings of a post just renamed name the old one.
  const freshSlugs = new Map(freshEntries.map((entry) => [String(entry.post_id), String(entry.slug)]));
  let matching = postings.filter((posting) => list.mayHold(posting));
  // Where the entries tell the list's posts, the leading entries that are the whole list (from the
  // cursor on) tell them exactly; else the matches' own entries or posts are read below.
  const byEntries = membersByEntries(list, sort);
  const members = byEntries && leading?.complete ? new Map(leading.items.map((entry) => [String(entry.post_id), String(entry.slug)])) : undefined;
  if (members) matching = matching.filter((posting) => members.has(posting.post_id));
  const indexed = new Set(matching.map((posting) => posting.post_id));
  const fresh = [...freshSlugs].filter(([id]) => !indexed.has(id)).map(([id, slug]) => ({ id, slug }));

  if (sortAttribute === INDEXES.postsByCreated.sortKey && (!byEntries || members)) {
    const slugOf = (id: string, slug: string) => freshSlugs.get(id) ?? members?.get(id) ?? slug;
    const ranked = matching.map((posting) => ({
      id: posting.post_id,
      slug: slugOf(posting.post_id, posting.slug),
      key: listSortKeys.postCreated(posting.created, posting.post_id),
    }));
    return { by: 'created', ranked, fresh };
  }
  const matches = matching.map((posting) => ({ id: posting.post_id, slug: freshSlugs.get(posting.post_id) ?? posting.slug }));
  if (matches.length + fresh.length <= 2 * (request.pageSize + 1)) return { by: 'posts', matches, fresh };
  const leadingRanks = (leading?.items ?? []).filter((entry) => indexed.has(String(entry.post_id))).map((entry) => entryRank(entry, sortAttribute));
  // The matches among the list's leading entries fill the page and one more, or are all of them:
  // a match beyond those entries ranks below every one of them.
  if (leading !== undefined && (leading.complete || leadingRanks.length > skippedBefore(request) + request.pageSize)) {
    return { by: 'leading', ranked: leadingRanks, fresh };
  }
  return { by: 'entries', matches, fresh };
}

/** The matches ranked by their posts as read (`read`: undefined for a post gone or no longer in the list). */
export function rankByPosts(matches: readonly Candidate[], read: ReadonlyMap<string, PostRecord | undefined>, keyOf: (post: PostRecord) => string): Ranked[] {
  return matches.flatMap(({ id }) => {
    const post = read.get(id);
    return post ? [{ id, slug: post.slug, key: keyOf(post) }] : [];
  });
}

/** The matches ranked by their entries in the list (`entryOf`: undefined for a post no longer in it). */
export function rankByEntries(matches: readonly Candidate[], entryOf: (id: string) => Item | undefined, sortAttribute: string): Ranked[] {
  return matches.flatMap(({ id }) => {
    const entry = entryOf(id);
    return entry ? [entryRank(entry, sortAttribute)] : [];
  });
}

/**
 * The ranking from the page's start (after the cursor's key `after`), highest first, and the ranks
 * whose posts the page needs read: fresh posts not in the index may rank anywhere, so the window
 * reaches back before the page by as many as there are; the ranks before it (`from`) are taken
 * as the index gives them. One rank past the page tells whether another follows.
 */
export function pageWindow(
  ranked: readonly Ranked[],
  freshCount: number,
  request: PageRequest,
  after: string | undefined,
): { ranked: Ranked[]; from: number; window: Ranked[] } {
  const sorted = [...ranked].sort(byKeyDescending).filter(({ key }) => after === undefined || key < after);
  const skipped = skippedBefore(request);
  const from = Math.max(0, skipped - freshCount);
  return { ranked: sorted, from, window: sorted.slice(from, skipped + request.pageSize + 1) };
}

/**
 * The fresh posts' places in creation order, told by their entries on `PostsByActive` without
 * reading the posts (postCreatedOfActive).
 */
export function freshCreatedKeys(freshEntries: readonly Item[]): Map<string, string> {
  const keys = new Map<string, string>();
  for (const entry of freshEntries) {
    const created = postCreatedOfActive(String(entry[INDEXES.postsByActive.sortKey] ?? ''));
    if (created !== undefined) keys.set(String(entry.post_id), created);
  }
  return keys;
}

/**
 * The fresh posts that may rank on a page in creation order, highest first: those after the
 * cursor's key `after` and above `boundary` (the key of the page's last indexed rank and one more,
 * when the index has that many: a post below it has a whole page and one more above it). A fresh
 * post whose key is unknown is always in reach, first.
 */
export function freshInReach(
  fresh: readonly Candidate[],
  keys: ReadonlyMap<string, string>,
  boundary: string | undefined,
  after: string | undefined,
): Candidate[] {
  const unknown = fresh.filter(({ id }) => !keys.has(id));
  const known = fresh
    .flatMap((candidate) => {
      const key = keys.get(candidate.id)!;
      return keys.has(candidate.id) && (after === undefined || key < after) && (boundary === undefined || key > boundary) ? [{ ...candidate, key }] : [];
    })
    .sort(byKeyDescending);
  return [...unknown, ...known.map(({ id, slug }) => ({ id, slug }))];
}

/** A post on a search's page, with the key it ranks by (what its cursor continues after). */
export interface RankedPost {
  key: string;
  post: PostRecord;
}

/**
 * The page's posts in order, from the window's and the fresh posts as read (each once, and only
 * those after the cursor's key), placed among the ranks before the window; and whether another
 * page follows.
 */
export function rankedPage(
  window: { ranked: readonly Ranked[]; from: number; window: readonly Ranked[] },
  fresh: readonly Candidate[],
  read: ReadonlyMap<string, PostRecord | undefined>,
  keyOf: (post: PostRecord) => string,
  request: PageRequest,
  after: string | undefined,
): { posts: RankedPost[]; hasNext: boolean } {
  const { ranked, from } = window;
  const skipped = skippedBefore(request);
  const ranks: { key: string; post?: PostRecord }[] = ranked.slice(0, from).map(({ key }) => ({ key }));
  const seen = new Set<string>();
  for (const { id } of [...window.window, ...fresh]) {
    const post = read.get(id);
    if (!post || seen.has(id)) continue;
    seen.add(id);
    const key = keyOf(post);
    if (after === undefined || key < after) ranks.push({ key, post });
  }
  ranks.sort(byKeyDescending);
  const posts = ranks.slice(skipped, skipped + request.pageSize).flatMap(({ key, post }) => (post ? [{ key, post }] : []));
  const hasNext = ranks.length > skipped + request.pageSize || ranked.length > skipped + request.pageSize + 1;
  return { posts, hasNext };
}
