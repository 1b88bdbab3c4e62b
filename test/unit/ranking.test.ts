import { describe, expect, it } from 'vitest';
import type { Item } from '#lib/db/batch.ts';
import { listSortKeys } from '#lib/db/keys.ts';
import { INDEXES } from '#lib/db/table.ts';
import type { PageRequest } from '#lib/pager.ts';
import { entrySortKeys } from '#lib/posts/entries.ts';
import { POST_LISTS } from '#lib/lists/post-lists.ts';
import type { PostRecord } from '#lib/posts/post.ts';
import { freshCreatedKeys, freshInReach, pageWindow, planRanking, rankByEntries, rankByPosts, rankedPage, type RankingInput } from '#lib/lists/ranking.ts';
import type { Posting } from '#lib/search/postings.ts';
import { postRecord } from './records.ts';

// How a search ranks its matches (lib/posts/ranking.ts), on values: which of the four sources
// orders the page, what it asks to read, and the page made of what was read. No database.

const CREATED = INDEXES.postsByCreated.sortKey;
const VIEWS = INDEXES.postsByViews.sortKey;
const PAGE_1: PageRequest = { page: 1, pageSize: 2 };

const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const created = (n: number) => `2026-01-${String(1 + (n % 28)).padStart(2, '0')}T00:00:00.${String(n).padStart(6, '0')}+00:00`;

function posting(n: number, fields: Partial<Posting> = {}): Posting {
  return { post_id: id(n), slug: `post-${n}`, author: 'alice', author_id: 7, created: created(n), publish: true, text_version: 1, ...fields };
}

/** A list entry of post `n` in the views order, with `views` visitors. */
function viewsEntry(n: number, views: number, slug = `post-${n}`): Item {
  return { post_id: id(n), slug, [VIEWS]: listSortKeys.postViews(views, created(n), id(n)) };
}

const input = (fields: Partial<RankingInput>): RankingInput => ({
  list: POST_LISTS.all(),
  sort: 'views',
  sortAttribute: VIEWS,
  request: PAGE_1,
  postings: [],
  freshEntries: [],
  ...fields,
});

const range = (count: number, from = 1) => Array.from({ length: count }, (_, i) => from + i);

describe('planRanking', () => {
  it('created order: the postings rank by their created key, without a read; the list and, for featured, its entries tell the posts', () => {
    // The featured list's entries, whole: posts 1, 3 and 4 (3 is no longer published, as its postings say).
    const featured = { items: [1, 3, 4].map((n) => ({ post_id: id(n), slug: `post-${n}` })), complete: true };
    const plan = planRanking(
      input({
        sort: 'featured',
        sortAttribute: CREATED,
        postings: [posting(1), posting(2), posting(3, { publish: false }), posting(4)],
        freshEntries: [
          { post_id: id(4), slug: 'renamed-4' },
          { post_id: id(9), slug: 'post-9' },
        ],
        leading: featured,
      }),
    );
    expect(plan).toEqual({
      by: 'created',
      ranked: [
        { id: id(1), slug: 'post-1', key: listSortKeys.postCreated(created(1), id(1)) },
        // A fresh entry names the post's current slug (a rename the postings do not know yet).
        { id: id(4), slug: 'renamed-4', key: listSortKeys.postCreated(created(4), id(4)) },
      ],
      // A fresh post the index does not hold is read and ranks by itself.
      fresh: [{ id: id(9), slug: 'post-9' }],
    });
  });

  it("a tag's list: the postings carry no tags, so its entries tell its posts; not all of them read: the posts or entries decide", () => {
    const list = POST_LISTS.tagged('go');
    const postings = range(8).map((n) => posting(n));
    // The tag's entries, whole: posts 2, 4 and 6, one of them renamed since its postings were written.
    const tagged = {
      items: [
        { post_id: id(2), slug: 'post-2' },
        { post_id: id(4), slug: 'renamed-4' },
        { post_id: id(6), slug: 'post-6' },
      ],
      complete: true,
    };
    expect(planRanking(input({ list, sort: 'newest', sortAttribute: CREATED, postings, leading: tagged }))).toEqual({
      by: 'created',
      ranked: [2, 4, 6].map((n) => ({ id: id(n), slug: n === 4 ? 'renamed-4' : `post-${n}`, key: listSortKeys.postCreated(created(n), id(n)) })),
      fresh: [],
    });
    // A tag's list longer than the entries read: few matches are read as posts; the leading entries
    // rank the page when their matches fill it and one more; else the matches' entries decide.
    const partial = {
      items: tagged.items.map((entry) => ({ ...entry, [CREATED]: listSortKeys.postCreated(created(Number(entry.post_id.slice(-12))), entry.post_id) })),
      complete: false,
    };
    expect(planRanking(input({ list, sort: 'newest', sortAttribute: CREATED, postings: postings.slice(0, 5), leading: partial })).by).toBe('posts');
    expect(planRanking(input({ list, sort: 'newest', sortAttribute: CREATED, postings, leading: partial })).by).toBe('leading');
    expect(
      planRanking(input({ list, sort: 'newest', sortAttribute: CREATED, postings, leading: { items: partial.items.slice(0, 1), complete: false } })).by,
    ).toBe('entries');
  });

  it('at most two pages and one of matches (with the fresh posts): their posts are read and rank themselves', () => {
    // pageSize 2: up to 6 candidates.
    const plan = planRanking(input({ postings: range(5).map((n) => posting(n)), freshEntries: [{ post_id: id(9), slug: 'post-9' }] }));
    expect(plan).toEqual({ by: 'posts', matches: range(5).map((n) => ({ id: id(n), slug: `post-${n}` })), fresh: [{ id: id(9), slug: 'post-9' }] });
    expect(planRanking(input({ postings: range(7).map((n) => posting(n)) })).by).not.toBe('posts');
  });

  it('the leading entries rank the page when their matches fill it and one more', () => {
    const postings = range(10).map((n) => posting(n));
    // Entries of posts 1..10 and of 20, which is no match, in the views order.
    const items = [viewsEntry(20, 900), ...range(10).map((n) => viewsEntry(n, 100 - n))];
    const plan = planRanking(input({ postings, leading: { items, complete: false } }));
    expect(plan.by).toBe('leading');
    expect(plan.by === 'leading' && plan.ranked.map(({ id }) => id)).toEqual(range(10).map(id));
    expect(plan.by === 'leading' && plan.ranked[0]).toEqual({ id: id(1), slug: 'post-1', key: String(viewsEntry(1, 99)[VIEWS]) });
    expect(plan.fresh).toEqual([]);
  });

  it('the leading entries rank the page when they are the whole list, however few of the matches they hold', () => {
    const postings = range(10).map((n) => posting(n));
    const plan = planRanking(input({ postings, leading: { items: [viewsEntry(3, 5)], complete: true } }));
    expect(plan.by).toBe('leading');
    expect(plan.by === 'leading' && plan.ranked.map(({ id }) => id)).toEqual([id(3)]);
  });

  it("the matches' entries are read when the leading entries do not reach past the page", () => {
    const postings = range(10).map((n) => posting(n));
    // Page 3 of 2 skips 4 and needs 3 ranks (2 and one more): 6 matches among the leading are one short.
    const leading = { items: range(6).map((n) => viewsEntry(n, 100 - n)), complete: false };
    const plan = planRanking(input({ postings, leading, request: { page: 3, pageSize: 2 }, freshEntries: [{ post_id: id(9), slug: 'renamed-9' }] }));
    expect(plan).toEqual({
      by: 'entries',
      matches: range(10).map((n) => ({ id: id(n), slug: n === 9 ? 'renamed-9' : `post-${n}` })),
      fresh: [],
    });
    // With one more match among them, they suffice.
    const more = { items: range(7).map((n) => viewsEntry(n, 100 - n)), complete: false };
    expect(planRanking(input({ postings, leading: more, request: { page: 3, pageSize: 2 } })).by).toBe('leading');
    // Without leading entries, the entries are read.
    expect(planRanking(input({ postings })).by).toBe('entries');
  });
});

describe('rankByPosts and rankByEntries', () => {
  const matches = [1, 2, 3].map((n) => ({ id: id(n), slug: `post-${n}` }));

  it('rank by the posts read, leaving out those gone or no longer in the list', () => {
    const posts = new Map<string, PostRecord | undefined>([
      [id(1), postRecord({ id: id(1), slug: 'post-1', total_visitors: 3 })],
      [id(2), undefined],
      [id(3), postRecord({ id: id(3), slug: 'now-3', total_visitors: 8 })],
    ]);
    const keyOf = (post: PostRecord) => entrySortKeys(post)[VIEWS]!;
    expect(rankByPosts(matches, posts, keyOf)).toEqual([
      { id: id(1), slug: 'post-1', key: keyOf(posts.get(id(1))!) },
      { id: id(3), slug: 'now-3', key: keyOf(posts.get(id(3))!) },
    ]);
  });

  it('rank by the entries read, leaving out the posts without one', () => {
    const entries = new Map([[id(2), viewsEntry(2, 50, 'moved-2')]]);
    expect(rankByEntries(matches, (post) => entries.get(post), VIEWS)).toEqual([{ id: id(2), slug: 'moved-2', key: String(viewsEntry(2, 50)[VIEWS]) }]);
  });
});

describe('pageWindow and rankedPage', () => {
  const post = (n: number, views: number) => postRecord({ id: id(n), slug: `post-${n}`, created: created(n), total_visitors: views });
  const keyOf = (record: PostRecord) => entrySortKeys(record)[VIEWS]!;
  const rank = (record: PostRecord) => ({ id: record.id, slug: record.slug, key: keyOf(record) });
  const posts = [post(1, 90), post(2, 80), post(3, 70), post(4, 60), post(5, 50)];

  it('page 1: the first page of the ranking, highest first, with a next page', () => {
    const window = pageWindow([rank(posts[2]!), rank(posts[0]!), rank(posts[1]!), rank(posts[3]!)], 0, PAGE_1, undefined);
    expect(window.from).toBe(0);
    expect(window.window.map(({ id }) => id)).toEqual([id(1), id(2), id(3)]);
    const read = new Map(posts.map((record) => [record.id, record]));
    const page = rankedPage(window, [], read, keyOf, PAGE_1, undefined);
    expect(page.posts.map(({ post }) => post.id)).toEqual([id(1), id(2)]);
    expect(page.hasNext).toBe(true);
  });

  it('a fresh post ranks where its post puts it, and the window reaches back by the fresh posts', () => {
    const request = { page: 2, pageSize: 2 };
    const fresh = post(6, 85);
    const window = pageWindow(posts.slice(0, 4).map(rank), 1, request, undefined);
    // Page 2 skips 2; one fresh post may rank before them, so the window starts at rank 1.
    expect(window.from).toBe(1);
    expect(window.window.map(({ id }) => id)).toEqual([id(2), id(3), id(4)]);
    const read = new Map([...posts, fresh].map((record) => [record.id, record]));
    const page = rankedPage(window, [{ id: fresh.id, slug: fresh.slug }], read, keyOf, request, undefined);
    // Order: 1 (90), fresh 6 (85), 2 (80), 3 (70), 4 (60): page 2 is 2 and 3.
    expect(page.posts.map(({ post }) => post.id)).toEqual([id(2), id(3)]);
    expect(page.hasNext).toBe(true);
  });

  it("after a cursor: only what ranks below the cursor's key, and no next page at the end", () => {
    const request = { page: 2, pageSize: 2, cursor: 'sealed' };
    const after = keyOf(posts[2]!);
    const window = pageWindow(posts.map(rank), 0, request, after);
    expect(window.ranked.map(({ id }) => id)).toEqual([id(4), id(5)]);
    const read = new Map(posts.map((record) => [record.id, record]));
    const page = rankedPage(window, [], read, keyOf, request, after);
    expect(page.posts.map(({ post }) => post.id)).toEqual([id(4), id(5)]);
    expect(page.hasNext).toBe(false);
  });

  it('a post gone since it was ranked leaves the page shorter, not wrong', () => {
    const window = pageWindow(posts.slice(0, 2).map(rank), 0, PAGE_1, undefined);
    const read = new Map<string, PostRecord | undefined>([
      [id(1), undefined],
      [id(2), posts[1]],
    ]);
    expect(rankedPage(window, [], read, keyOf, PAGE_1, undefined)).toEqual({ posts: [{ key: keyOf(posts[1]!), post: posts[1] }], hasNext: false });
  });
});

describe('freshCreatedKeys and freshInReach (a search behind a backlog)', () => {
  const ACTIVE = INDEXES.postsByActive.sortKey;
  /** A fresh entry of post `n` as PostsByActive holds it, changed at `modified`. */
  const freshEntry = (n: number, modified = '2026-11-27T12:00:00.000000+00:00'): Item => ({
    post_id: id(n),
    slug: `post-${n}`,
    [ACTIVE]: listSortKeys.postActive(modified, created(n), id(n)),
  });
  const key = (n: number) => listSortKeys.postCreated(created(n), id(n));

  it("reads a fresh post's creation key from its entry's ActiveSK, and skips an entry without one", () => {
    expect(freshCreatedKeys([freshEntry(3), freshEntry(5), { post_id: id(9), slug: 'post-9' }])).toEqual(
      new Map([
        [id(3), key(3)],
        [id(5), key(5)],
      ]),
    );
  });

  const fresh = [1, 2, 3, 4, 5].map((n) => ({ id: id(n), slug: `post-${n}` }));
  const keys = freshCreatedKeys([1, 2, 3, 4, 5].map((n) => freshEntry(n)));

  it('orders the fresh posts highest key first', () => {
    expect(freshInReach(fresh, keys, undefined, undefined).map(({ slug }) => slug)).toEqual(['post-5', 'post-4', 'post-3', 'post-2', 'post-1']);
  });

  it("keeps those after the cursor's key and above the boundary only", () => {
    expect(freshInReach(fresh, keys, key(1), key(5)).map(({ slug }) => slug)).toEqual(['post-4', 'post-3', 'post-2']);
  });

  it('puts a fresh post whose key is unknown first: it is always read', () => {
    const unknown = { id: id(9), slug: 'post-9' };
    expect(freshInReach([...fresh, unknown], keys, key(3), undefined).map(({ slug }) => slug)).toEqual(['post-9', 'post-5', 'post-4']);
  });
});
