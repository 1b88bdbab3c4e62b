import { describe, expect, it } from 'vitest';
import type { Item } from '#lib/db/batch.ts';
import { listSortKeys } from '#lib/db/keys.ts';
import { INDEXES } from '#lib/db/table.ts';
import { POST_LISTS } from '#lib/lists/post-lists.ts';
import { creationKeyOf, creationPlan, entryPlan, reachOf, windowSays } from '#lib/lists/ranking.ts';
import type { Window } from '#lib/search/find.ts';
import type { Posting } from '#lib/search/postings.ts';
import { queryTerm } from '#lib/search/terms.ts';

// Which posts a page of a search reads (lib/lists/ranking.ts), on values: what the windows of the
// query words tell, the candidates of a page in creation order and in an order of the entries. No
// database.

const VIEWS = INDEXES.postsByViews.sortKey;
const ACTIVE = INDEXES.postsByActive.sortKey;

const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
/** Post n's creation time: a higher n is newer. */
const created = (n: number) => `2026-01-01T00:00:00.${String(n).padStart(6, '0')}+00:00`;
const key = (n: number) => listSortKeys.postCreated(created(n), id(n));

function posting(n: number, fields: Partial<Posting> = {}): Posting {
  return { post_id: id(n), slug: `post-${n}`, author: 'alice', author_id: 7, key: key(n), text_version: 1, words: [], ...fields };
}

/** The window of `word` holding posts `ns`, reaching down to post `reach` (undefined: whole). */
function window(word: string, ns: number[], reach?: number): Window {
  return { query: queryTerm(word), postings: new Map(ns.map((n) => [id(n), posting(n)])), ...(reach === undefined ? {} : { reach: key(reach) }) };
}

/** Post n's entry in the views order with `views` visitors. */
const viewsEntry = (n: number, views: number): Item => ({ post_id: id(n), slug: `post-${n}`, [VIEWS]: listSortKeys.postViews(views, created(n), id(n)) });

/** Post n's entry by activity (a fresh entry), changed at `modified`. */
const freshEntry = (n: number, slug = `post-${n}`): Item => ({
  post_id: id(n),
  slug,
  [ACTIVE]: listSortKeys.postActive('2026-02-01T00:00:00.000000+00:00', created(n), id(n)),
});

const ids = (candidates: readonly { id: string }[]) => candidates.map((candidate) => Number(candidate.id.slice(-12)));

describe('windowSays', () => {
  it('knows a post in the window, and one as new as its reach that it lacks; not one older', () => {
    const lambda = window('lambda', [9, 7], 5);
    expect(windowSays(lambda, id(9), key(9))).toBe('yes');
    expect(windowSays(lambda, id(8), key(8))).toBe('no');
    expect(windowSays(lambda, id(5), key(5))).toBe('no');
    expect(windowSays(lambda, id(4), key(4))).toBe('unknown');
  });

  it('knows every post when the window is whole', () => {
    expect(windowSays(window('go', [3]), id(1), key(1))).toBe('no');
  });
});

describe('reachOf', () => {
  it('is the newest of the windows’ ends, or undefined when all are whole', () => {
    expect(reachOf([window('a', [9], 4), window('b', [9], 6), window('c', [9])])).toBe(key(6));
    expect(reachOf([window('a', [9]), window('b', [2])])).toBeUndefined();
    expect(reachOf([])).toBeUndefined();
  });
});

describe('creationKeyOf', () => {
  it('reads the creation key inside a key of any order', () => {
    expect(creationKeyOf(INDEXES.postsByCreated.sortKey, key(3))).toBe(key(3));
    expect(creationKeyOf(VIEWS, listSortKeys.postViews(12, created(3), id(3)))).toBe(key(3));
    expect(creationKeyOf(ACTIVE, listSortKeys.postActive('2026-02-01T00:00:00.000000+00:00', created(3), id(3)))).toBe(key(3));
  });
});

describe('creationPlan', () => {
  const list = POST_LISTS.all();
  const wanted = 5;

  it('takes the posts every window holds, newest first, down to the newest reach, where the next page starts', () => {
    const plan = creationPlan({ list, wanted, fresh: [], windows: [window('lambda', [10, 9, 7, 4, 2], 3), window('go', [10, 7, 6, 4], 6)] });
    expect(ids(plan.candidates)).toEqual([10, 7]);
    expect(plan.stoppedAt).toEqual({ id: id(6), key: key(6) });
    expect(plan.candidates[0]).toEqual({ id: id(10), slug: 'post-10', key: key(10), creation: key(10), fresh: false, indexed: true, checks: [] });
  });

  it('takes every match when the windows are whole, none below the page’s start, and nothing is left', () => {
    const plan = creationPlan({ list, wanted, fresh: [], windows: [window('lambda', [9, 4, 2]), window('go', [9, 4, 2, 1])], below: key(9) });
    expect(ids(plan.candidates)).toEqual([4, 2]);
    expect(plan.stoppedAt).toBeUndefined();
  });

  it('goes on below the reach only while a whole window (a word of few posts) has posts there', () => {
    const left = creationPlan({ list, wanted, fresh: [], windows: [window('dunlin', [9, 2]), window('go', [9, 8, 7], 7)] });
    expect(ids(left.candidates)).toEqual([9]);
    expect(left.stoppedAt).toEqual({ id: id(7), key: key(7) });
    const none = creationPlan({ list, wanted, fresh: [], windows: [window('dunlin', [9]), window('go', [9, 8, 7], 7)] });
    expect(ids(none.candidates)).toEqual([9]);
    expect(none.stoppedAt).toBeUndefined();
  });

  it('takes the wanted newest, and the next page starts below the last of them', () => {
    const plan = creationPlan({ list, wanted: 2, fresh: [], windows: [window('go', [9, 8, 7, 6])] });
    expect(ids(plan.candidates)).toEqual([9, 8]);
    expect(plan.stoppedAt).toEqual({ id: id(8), key: key(8) });
  });

  it('keeps what the list may hold by the postings: an author’s posts only', () => {
    const windows = [
      {
        ...window('go', [3, 2]),
        postings: new Map([
          [id(3), posting(3, { author: 'bob' })],
          [id(2), posting(2)],
        ]),
      },
    ];
    expect(ids(creationPlan({ list: POST_LISTS.authored('alice'), wanted, fresh: [], windows }).candidates)).toEqual([2]);
    expect(ids(creationPlan({ list: POST_LISTS.all(), wanted, fresh: [], windows }).candidates)).toEqual([3, 2]);
  });

  it('reads the fresh posts in the span beside the others (their words to be checked when read), under their current slug', () => {
    const plan = creationPlan({ list, wanted, windows: [window('lambda', [10, 7], 6)], fresh: [freshEntry(12), freshEntry(7, 'renamed-7'), freshEntry(3)] });
    expect(ids(plan.candidates)).toEqual([12, 10, 7]);
    expect(plan.candidates.map(({ fresh, indexed, slug }) => ({ fresh, indexed, slug }))).toEqual([
      { fresh: true, indexed: false, slug: 'post-12' },
      { fresh: false, indexed: true, slug: 'post-10' },
      { fresh: true, indexed: true, slug: 'renamed-7' },
    ]);
  });

  it('never lets fresh posts take the place of those the index holds, nor reads one past the last of those', () => {
    const plan = creationPlan({ list, wanted: 2, windows: [window('go', [9, 7, 5])], fresh: [freshEntry(10), freshEntry(8), freshEntry(6), freshEntry(4)] });
    expect(ids(plan.candidates)).toEqual([10, 9, 8, 7]);
    expect(plan.stoppedAt).toEqual({ id: id(7), key: key(7) });
  });

  it('keeps only the members when the list’s entries were read whole (a tag’s list), by their slugs', () => {
    const plan = creationPlan({
      list: POST_LISTS.tagged('go'),
      wanted,
      windows: [window('lambda', [10, 9, 8])],
      fresh: [freshEntry(11)],
      members: [
        { post_id: id(9), slug: 'now-9' },
        { post_id: id(11), slug: 'post-11' },
      ],
    });
    expect(ids(plan.candidates)).toEqual([11, 9]);
    expect(plan.candidates[1]!.slug).toBe('now-9');
  });
});

describe('entryPlan', () => {
  const words = ['lambda', 'go'];
  const base = { words, sortAttribute: VIEWS, fresh: [] as Item[], wanted: 3, checkBudget: 10 };

  it('walks the entries in their order: in where every window holds it, out where one that reaches it lacks it', () => {
    const windows = [window('lambda', [9, 8, 5]), window('go', [9, 5, 4])];
    const plan = entryPlan({ ...base, windows, entries: [viewsEntry(4, 50), viewsEntry(5, 40), viewsEntry(8, 30), viewsEntry(9, 20)] });
    expect(ids(plan.candidates)).toEqual([5, 9]);
    expect(plan.examined).toBe(4);
    expect(plan.candidates[0]).toMatchObject({ key: listSortKeys.postViews(40, created(5), id(5)), creation: key(5), checks: [] });
  });

  it('checks the words whose windows stop short of an entry, within the budget, and stops before one past it', () => {
    const windows = [window('lambda', [9, 8], 8), window('go', [9, 3])];
    const entries = [viewsEntry(2, 90), viewsEntry(9, 80), viewsEntry(1, 70), viewsEntry(3, 60)];
    const plan = entryPlan({ ...base, windows, entries, checkBudget: 1 });
    // Post 2: go's whole window lacks it. Post 9: both hold it. Post 1: out by go. Post 3: lambda
    // unknown (older than its reach): one check.
    expect(plan.candidates.map(({ id: at, checks }) => [Number(at.slice(-12)), checks])).toEqual([
      [9, []],
      [3, ['lambda']],
    ]);
    expect(plan.examined).toBe(4);
    const tight = entryPlan({ ...base, windows, entries: [viewsEntry(3, 60), viewsEntry(4, 50)], checkBudget: 0 });
    expect(tight).toEqual({ candidates: [], examined: 0 });
  });

  it('stops at the candidates wanted, and takes a fresh entry whatever the windows say', () => {
    const windows = [window('lambda', [9, 8, 7, 6])];
    const plan = entryPlan({
      ...base,
      words: ['lambda'],
      windows,
      fresh: [freshEntry(2)],
      entries: [viewsEntry(2, 99), viewsEntry(9, 80), viewsEntry(8, 70), viewsEntry(7, 60)],
    });
    expect(ids(plan.candidates)).toEqual([2, 9, 8]);
    expect(plan.candidates[0]).toMatchObject({ fresh: true, indexed: false });
    expect(plan.examined).toBe(3);
  });
});
