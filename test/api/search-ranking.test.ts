import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { batchPut, type Item } from '#lib/db/batch.ts';
import { postItems } from '#lib/posts/changes.ts';
import { summaryOf } from '#lib/posts/summarize.ts';
import { newPost, type PostRecord } from '#lib/posts/post.ts';
import { LEADING_LIMIT } from '#lib/lists/search.ts';
import { isoTimestamp, nowMicros } from '#lib/time.ts';
import { countDynamoDbCalls, type CallCounter } from '../support/dynamodb-calls.ts';
import { useApi } from '../support/fixture.ts';
import { nextLink, walkPages } from '../support/link.ts';

// A search sorted by views, votes or activity on a site larger than the leading entries a search
// reads (lib/lists/search.ts): a page walks the list's entries in that order, as far as one read
// of them goes, and takes the matches among them (two round trips); where they are too few the
// page is short, and its Link goes on down the list. Following the Links gives the site's order.
// The site is written straight into the table through the project's item builders (as a large
// site's data would be there), and the stream consumer indexes it, as deployed.

const api = useApi({ users: ['alice', 'bob'] });
const { alice, bob } = api.users;
let calls: CallCounter;

/** Posts beyond the leading entries, so that some matches of a search lie past them. */
const SITE = LEADING_LIMIT + 60;
/** Carried by one post in 20 of the whole site: the leading entries hold enough of them for a page. */
const SPREAD = 'spreadword';
/** Carried by the posts of fewest views only: all past the leading entries by views. */
const TAIL = 'tailword';
const PAGE_SIZE = 4;

interface Seeded {
  slug: string;
  created: string;
  views: number;
  likes: number;
  words: string[];
}
const site: Seeded[] = [];

/**
 * Words a search for RANGE must find, the letters after it being high in code point order (DynamoDB
 * sorts by UTF-8 bytes: U+FA0E, a CJK ideograph NFKD keeps, and U+20000 are the highest), and one it
 * must not find.
 */
const RANGE = 'rangeword';
const IN_RANGE = [`${RANGE}`, `${RANGE}z`, `${RANGE}\uFA0E`, `${RANGE}\u{20000}x`];
const OUT_OF_RANGE = 'rangewore';

/** A post's items as a bulk load writes them, its summary with them. */
const seededItems = (post: PostRecord): Item[] => postItems(post, summaryOf(post));

function seededPost(i: number, micros: number): PostRecord {
  // Every post has at least 10 views; the TAIL posts have exactly 10, the fewest.
  const views = i % 40 === 0 ? 10 : 11 + (i % 29);
  const words = [...(i % 20 === 0 ? [SPREAD] : []), ...(i % 40 === 0 ? [TAIL] : []), ...(i >= SITE ? [[...IN_RANGE, OUT_OF_RANGE][i - SITE]!] : [])];
  const post = newPost(
    { userId: alice.id, username: alice.username, token: '' },
    { title: `Ranked post ${i}`, description: ['Seeded', ...words].join(' '), publish: true },
    { slug: `ranked-post-${i}`, slugBase: `ranked-post-${i}` },
    [],
    isoTimestamp(micros),
  );
  site.push({ slug: post.slug, created: post.created, views, likes: i % 7, words });
  return { ...post, total_visitors: views, rating_likes: i % 7 };
}

beforeAll(async () => {
  // Created a second apart, the newest an hour ago: none is among a search's fresh entries.
  const newest = nowMicros() - 3_600_000_000;
  const count = SITE + IN_RANGE.length + 1;
  const items: Item[] = Array.from({ length: count }, (_, i) => seededItems(seededPost(i, newest - (count - i) * 1_000_000))).flat();
  await batchPut(items);
  // The stream consumer indexes the seeded texts as it would any new post.
  await api.streams!.caughtUp(120_000);
  calls = countDynamoDbCalls();
}, 240_000);
afterAll(() => calls?.detach());

type Sort = 'views' | 'votes' | 'active';

/** The site's order of the posts carrying `word`: highest value first, ties to the newest. */
function expectedOrder(word: string, sort: Sort): string[] {
  const value = (post: Seeded) => (sort === 'views' ? post.views : sort === 'votes' ? post.likes : 0);
  return site
    .filter((post) => post.words.includes(word))
    .sort((a, b) => value(b) - value(a) || (a.created < b.created ? 1 : -1))
    .map((post) => post.slug);
}

const slugsOf = (body: unknown) => (body as { slug: string }[]).map((post) => post.slug);

/** The pages of a search, following its Links. */
const searchPages = (query: Record<string, string>) => walkPages(bob.api, '/posts', query);
const walk = async (query: Record<string, string>) => (await searchPages(query)).flat();

describe('q with sort=views, votes or active on a site larger than the leading entries', () => {
  it("the matches among the leading entries fill the page: page 1 in two round trips, in the site's order", async () => {
    for (const sort of ['views', 'votes', 'active'] as const) {
      let body: unknown;
      const usage = await calls.usage(async () => {
        const response = await bob.api.get('/posts', { query: { q: SPREAD, sort, page_size: String(PAGE_SIZE) } });
        expect(response.status).toBe(200);
        body = response.body;
      });
      expect(slugsOf(body), sort).toEqual(expectedOrder(SPREAD, sort).slice(0, PAGE_SIZE));
      // The token, the word's postings, the fresh entries and the leading entries; then the page's posts.
      expect(usage.calls, sort).toEqual({ GetItem: 1, Query: 3, BatchGetItem: 1 });
      expect(usage.rounds, sort).toBe(2);
    }
  });

  it('matches all past the leading entries: page 1 is empty and links on (two round trips), and its Link reaches them', async () => {
    const expected = expectedOrder(TAIL, 'views');
    expect(expected.length).toBeGreaterThan(PAGE_SIZE);
    let response: Awaited<ReturnType<typeof bob.api.get>> | undefined;
    const usage = await calls.usage(async () => {
      response = await bob.api.get('/posts', { query: { q: TAIL, sort: 'views', page_size: String(PAGE_SIZE) } });
    });
    expect(response!.status).toBe(200);
    expect(slugsOf(response!.body)).toEqual([]);
    // No candidate among the entries read: the page reads no post.
    expect(usage.rounds).toBe(1);
    const next = await bob.api.get(nextLink(response!)!);
    expect(slugsOf(next.body)).toEqual(expected.slice(0, PAGE_SIZE));
  });

  it("following Link gives every match once in the site's order, and page N by number is the N-th page of the Links", async () => {
    for (const [word, sort] of [
      [SPREAD, 'views'],
      [SPREAD, 'votes'],
      [TAIL, 'views'],
      [SPREAD, 'active'],
    ] as const) {
      const pages = await searchPages({ q: word, sort, page_size: String(PAGE_SIZE) });
      expect(pages.flat(), `${word} ${sort}`).toEqual(expectedOrder(word, sort));
      const third = await bob.api.get('/posts', { query: { q: word, sort, page_size: String(PAGE_SIZE), page: '3' } });
      expect(third.status).toBe(200);
      expect(slugsOf(third.body), `${word} ${sort} page 3`).toEqual(pages[2]);
    }
  });

  it('a query word finds every indexed word it begins, whatever letters follow, and no other', async () => {
    const found = await bob.api.get('/posts', { query: { q: RANGE } });
    expect(found.status).toBe(200);
    const expected = site
      .filter((post) => post.words.some((word) => IN_RANGE.includes(word)))
      .map((post) => post.slug)
      .reverse();
    expect(expected).toHaveLength(IN_RANGE.length);
    expect(slugsOf(found.body)).toEqual(expected);
  });

  it('a post just visited moves up at once, and a new post that matches is found before the index has it', async () => {
    const expected = expectedOrder(TAIL, 'views');
    // A first visit lifts the last match to the top of the matches: 11 views against the others' 10.
    const last = expected.at(-1)!;
    expect((await bob.api.get(`/posts/detail/${last}`)).status).toBe(200);
    const created = await alice.api.post('/posts', { form: { title: `A new ${TAIL}`, description: 'Fresh', publish: 'true' } });
    expect(created.status).toBe(201);
    expect(await walk({ q: TAIL, sort: 'views', page_size: String(PAGE_SIZE) })).toEqual([last, ...expected.slice(0, -1), created.body.slug]);
    await api.streams!.caughtUp();
    expect(await walk({ q: TAIL, sort: 'views', page_size: String(PAGE_SIZE) })).toEqual([last, ...expected.slice(0, -1), created.body.slug]);
  });
});
