import type { Item } from '#lib/db/batch.ts';
import { keys } from '#lib/db/keys.ts';
import { cursorAfterItem, queryAbove, queryItems, type ListQuery } from '#lib/db/query.ts';
import { INDEXES } from '#lib/db/table.ts';
import type { Page, PageRequest } from '#lib/pager.ts';
import { readPostsById } from '#lib/posts/listed.ts';
import type { PostRecord } from '#lib/posts/post.ts';
import type { PostView } from '#lib/posts/summary.ts';
import { havePostings, readWindow, windowSize, type Window } from '#lib/search/find.ts';
import { matchesQuery, postWords } from '#lib/search/words.ts';
import { isoTimestamp, nowMicros } from '#lib/time.ts';
import type { PostList, PostSort } from './post-lists.ts';
import { creationPlan, entryPlan, type Candidate, type LeadingEntries } from './ranking.ts';

// A page of a list with `q` (docs/api.md, "Search"; docs/data-model.md, "The search index"), in two
// round trips: first, with the token check, the window of each query word (find.ts), the list's
// entries changed in the last FRESH_MS (posts the index may not hold yet) and, where the order or
// the list needs them, the list's leading entries; then the posts ranking.ts picks, read as any
// list reads its posts (with, in an order of the entries, the postings it checks). What a page
// reads is bounded whatever the query, the site or the posts' sizes: the windows' postings, at most
// LEADING_LIMIT entries and FRESH_LIMIT fresh ones, and the page's posts and a few more. A page
// may come out short, or empty, where the posts it looked at were too few matches; its `Link`
// then goes on from where it stopped.

/** How far back a search reads the list's changed entries: well past the stream's lag (about a second). */
export const FRESH_MS = 10_000;
/** The most recently changed entries a search reads. */
export const FRESH_LIMIT = 10;
/**
 * The list's entries a search reads in its order where the postings do not carry it (about 200
 * bytes each: some 8 RCU), or to tell a tag's or the featured posts.
 */
export const LEADING_LIMIT = 300;
/** The postings a page in an order of the entries reads to tell whether posts past the windows have a word (0.5 RCU each). */
export const CHECKS_PER_PAGE = 40;
/** Candidates read past the page and the one more that tells whether another follows: some may not belong. */
export const SPARE_READS = 2;

/** Whether `sort` ranks by creation, which the postings carry. */
export const byCreation = (sort: PostSort) => sort === 'newest' || sort === 'featured';

/** Whether the posts of a search in `list` and `sort` are told by the list's entries (the postings carry neither tags nor the featured flag). */
export const membersByEntries = (list: PostList, sort: PostSort) => list.membersByEntries === true || sort === 'featured';

export interface SearchScope {
  list: PostList;
  sort: PostSort;
  view: PostView;
  /** The list's index query in this sort (its partition, its sort key attribute). */
  index: ListQuery;
  /** The list's entry sort key (keys.postEntry) in this sort: what cursors name. */
  entryList: string;
  request: PageRequest;
  words: readonly string[];
}

/** What the first round trip of a search read. */
export interface FirstReads {
  windows: Window[];
  /** The list's entries changed in the last FRESH_MS, most recently changed first. */
  fresh: Item[];
  /** The list's first entries in its order from the page's start, where the order or the list needs them. */
  leading?: LeadingEntries;
}

/** The entries of `index`'s list by their last change (`modified`), where a search finds what the index may not have yet. */
export function freshQuery(index: ListQuery): ListQuery {
  return { ...index, index: 'postsByActive' };
}

/** The first round trip of a page starting at `start` (its cursor's keys; none for the first page): sent at once, in parallel. */
export async function firstReads(scope: SearchScope, start: Record<string, string> | undefined): Promise<FirstReads> {
  const { list, sort, index, words } = scope;
  const sortAttribute = INDEXES[index.index].sortKey;
  const below = byCreation(sort) ? start?.[sortAttribute] : undefined;
  const [windows, fresh, leading] = await Promise.all([
    Promise.all(words.map((word) => readWindow(word, windowSize(words.length), below))),
    queryAbove(freshQuery(index), isoTimestamp(nowMicros() - FRESH_MS * 1000), FRESH_LIMIT),
    !byCreation(sort) || membersByEntries(list, sort)
      ? queryItems(index, LEADING_LIMIT, start).then(({ items, next }) => ({ items, complete: next === undefined }))
      : undefined,
  ]);
  return { windows, fresh, ...(leading ? { leading } : {}) };
}

/** The page of a search from its first round trip's reads: its posts read and checked (the second round trip). */
export async function searchPage(scope: SearchScope, reads: FirstReads, start: Record<string, string> | undefined): Promise<Page<PostRecord>> {
  const { list, sort, view, index, request, words } = scope;
  const sortAttribute = INDEXES[index.index].sortKey;
  const wanted = request.pageSize + 1 + SPARE_READS;
  let candidates: Candidate[];
  /** Where the page goes on when it is short: the key of the last post it looked at, or its reach; undefined when nothing is left. */
  let stoppedAt: { id: string; key: string } | undefined;
  if (byCreation(sort)) {
    const below = start?.[sortAttribute];
    const members = reads.leading?.complete ? reads.leading.items : undefined;
    const plan = creationPlan({ windows: reads.windows, list, fresh: reads.fresh, wanted, ...(members ? { members } : {}), ...(below ? { below } : {}) });
    candidates = plan.candidates;
    stoppedAt = plan.stoppedAt;
  } else {
    const entries = reads.leading?.items ?? [];
    const plan = entryPlan({ windows: reads.windows, words, entries, sortAttribute, fresh: reads.fresh, wanted, checkBudget: CHECKS_PER_PAGE });
    candidates = plan.candidates;
    const last = entries[plan.examined - 1];
    if (last && (plan.examined < entries.length || !reads.leading?.complete)) stoppedAt = { id: String(last.post_id), key: String(last[sortAttribute]) };
  }

  const [posts, has] = await Promise.all([
    readPostsById(candidates, view),
    havePostings(candidates.flatMap(({ id, creation, checks }) => checks.map((word) => ({ id, creation, word })))),
  ]);
  const kept = candidates.flatMap((candidate) => {
    const post = posts.get(candidate.id);
    const belongs =
      post !== undefined &&
      list.holds(post) &&
      (sort !== 'featured' || post.is_featured) &&
      candidate.checks.every((word) => has(candidate.id, word)) &&
      (!candidate.fresh || hasWords(post, view, words) || (view === 'summary' && candidate.indexed));
    return belongs ? [{ post, key: candidate.key }] : [];
  });

  const cursorAt = ({ id, key }: { id: string; key: string }) =>
    cursorAfterItem(index, { ...keys.postEntry(id, scope.entryList), [INDEXES[index.index].partitionKey]: index.partition, [sortAttribute]: key }, words);
  const shown = kept.slice(0, request.pageSize);
  const next = kept.length > request.pageSize ? { id: shown.at(-1)!.post.id, key: shown.at(-1)!.key } : stoppedAt;
  return {
    items: shown.map(({ post }) => post),
    ...(next ? { next: cursorAt(next) } : {}),
    cursorAfter: (at) => cursorAt({ id: shown[at]!.post.id, key: shown[at]!.key }),
  };
}

/**
 * Whether a post as read has every query word: its whole text in full view; in summary view what
 * the summary holds of it (title, keywords, meta description and excerpt), the rest being the index's.
 */
function hasWords(post: PostRecord, view: PostView, words: readonly string[]): boolean {
  return matchesQuery(postWords(view === 'summary' ? { ...post, description: post.summary?.excerpt ?? '' } : post), words);
}
