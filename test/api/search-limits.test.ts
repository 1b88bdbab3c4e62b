import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { batchPut, type Item } from '#lib/db/batch.ts';
import { postItems } from '#lib/posts/changes.ts';
import { newPost, type PostRecord } from '#lib/posts/post.ts';
import { summaryOf } from '#lib/posts/summarize.ts';
import { POSTINGS_PER_PAGE } from '#lib/search/find.ts';
import { QUERY_LIMITS } from '#lib/search/words.ts';
import { isoTimestamp, nowMicros } from '#lib/time.ts';
import { recordRequestUsage, type UsageLog } from '../../scripts/local/request-usage.ts';
import { getWithBody, type ApiResponse } from '../support/api.ts';
import { useApi } from '../support/fixture.ts';
import { nextLink, walkPages } from '../support/link.ts';

// What a search costs is bounded whatever the query, the site and the posts' sizes (docs/api.md,
// "Search"): a page of 20 summaries reads at most 100 RCU in at most two round trips, for a word
// every post has, for 26 one-letter words, with descriptions of 100,000 characters, and while the
// index works through a burst of writes; and the pages it gives, followed by their Links, are
// every match exactly once, newest first. The site is written straight into the table through the
// project's item builders, larger than what one page of a word's postings reads, and the stream
// consumer indexes it, as deployed. Each request's cost is its own access-log record.

const api = useApi({ users: ['alice', 'bob'] });
const { alice, bob } = api.users;
let usage: UsageLog;

/** More posts than a page of one word's postings reads. */
const SITE = POSTINGS_PER_PAGE + 300;
/** The newest posts carry a description of 100,000 characters. */
const LONG = 25;
/** One word for each letter, in every post. */
const ALPHABET =
  'alfa bravo charlie delta echo foxtrot golf hotel india juliett kilo lima mike november oscar papa quebec romeo sierra tango uniform victor whiskey xray yankee zulu';
/** In one post in 10, and with the common word in all of them. */
const SPARSE = 'plover';
/** In one post in 100 of those with SPARSE only. */
const RARE = 'dunlin';

/** A description of 100,000 characters: 5,000 made-up words over and over. */
const longText = (() => {
  const words = Array.from({ length: 5_000 }, (_, i) => `w${i.toString(36)}x`);
  let text = ALPHABET;
  for (let i = 0; text.length < 99_990; i++) text += ` ${words[i % words.length]}`;
  return text.slice(0, 100_000);
})();

const slugs: string[] = [];
/** Post i's words beyond the alphabet. */
const wordsOf = (i: number) => [...(i % 10 === 0 ? [SPARSE] : []), ...(i % 100 === 0 ? [RARE] : [])];

function seededPost(i: number, micros: number): PostRecord {
  const description = i >= SITE - LONG ? `${longText.slice(0, 99_000)} ${wordsOf(i).join(' ')}` : `${ALPHABET} ${wordsOf(i).join(' ')}`;
  const post = newPost(
    { userId: alice.id, username: alice.username, token: '' },
    { title: `Bounded post ${i}`, description, publish: true },
    { slug: `bounded-post-${i}`, slugBase: `bounded-post-${i}` },
    [],
    isoTimestamp(micros),
  );
  slugs.push(post.slug);
  return post;
}

beforeAll(async () => {
  // Created a second apart, the newest an hour ago: none is among a search's fresh entries.
  const newest = nowMicros() - 3_600_000_000;
  const items: Item[] = Array.from({ length: SITE }, (_, i) => {
    const post = seededPost(i, newest - (SITE - i) * 1_000_000);
    return postItems(post, summaryOf(post));
  }).flat();
  await batchPut(items);
  await api.streams!.caughtUp(240_000);
  usage = recordRequestUsage();
}, 300_000);
afterAll(() => usage?.detach());

/** The newest first. */
const newestFirst = (filter: (i: number) => boolean) =>
  slugs
    .map((slug, i) => ({ slug, i }))
    .filter(({ i }) => filter(i))
    .map(({ slug }) => slug)
    .reverse();

const slugsOf = (body: unknown) => (body as { slug: string }[]).map((post) => post.slug);

/** The request's own cost: its DynamoDB calls and read units, from its access-log record. */
function costOf(response: ApiResponse): { calls: number; read: number } {
  const record = usage.take(response.headers.get('apigw-requestid') ?? undefined);
  expect(record, 'the request ran in this process').toBeDefined();
  return { calls: record!.dynamodbCalls, read: record!.consumedCapacity.read };
}

const SUMMARIES = { view: 'summary', page_size: '20' };

const walk = (query: Record<string, string>) => walkPages(bob.api, '/posts', query, 100);

describe('a page of 20 summaries of a search', () => {
  it.each([
    ['a word every post has', 'kilo'],
    ['one letter', 'k'],
    ['26 one-letter words', 'a b c d e f g h i j k l m n o p q r s t u v w x y z'],
    ['a word every post has beside one in ten', `kilo ${SPARSE}`],
  ])('for %s: 200 with at most 100 RCU, whatever the site and the descriptions hold', async (_name, q) => {
    const response = await bob.api.get('/posts', { query: { q, ...SUMMARIES } });
    expect(response.status).toBe(200);
    const { read } = costOf(response);
    expect(read).toBeLessThanOrEqual(100);
    expect(slugsOf(response.body).length).toBeGreaterThan(0);
  });

  it('the newest matches first, the 25 newest having 100,000 characters of description', async () => {
    const response = await bob.api.get('/posts', { query: { q: 'k', ...SUMMARIES } });
    expect(slugsOf(response.body)).toEqual(newestFirst(() => true).slice(0, 20));
    expect(nextLink(response)).toBeDefined();
  });

  it('a q sent in a GET body of 900 KB is read as its first 1,000 characters: 200 within the same bound', async () => {
    const q = `kilo ${'zz '.repeat(300_000)}`;
    const response = await getWithBody(bob.api, '/posts?view=summary&page_size=20', JSON.stringify({ q }), 'application/json');
    expect(response.status).toBe(200);
    expect(QUERY_LIMITS.length).toBe(1_000);
    // kilo and zz: every post has kilo, none a word beginning with zz.
    expect(response.body).toEqual([]);
  });
});

describe('the pages of a search, followed by their Links', () => {
  it('give every match once, newest first, for a word every post has (more than one page of postings)', async () => {
    const pages = await walk({ q: 'kilo', view: 'summary', page_size: '100' });
    expect(pages.flat()).toEqual(newestFirst(() => true));
  });

  it('give every match once, newest first, for a word in one post in 10 beside a word in every post', async () => {
    const pages = await walk({ q: `kilo ${SPARSE}`, ...SUMMARIES });
    expect(pages.flat()).toEqual(newestFirst((i) => i % 10 === 0));
    // A page may come out short where the postings read held too few matches, never a wrong one.
    expect(pages.every((page) => page.length <= 20)).toBe(true);
  });

  it('give every match once for two words that meet in one post in 100, each page at most 100 RCU', async () => {
    let response = await bob.api.get('/posts', { query: { q: `${RARE} ${SPARSE}`, ...SUMMARIES } });
    const found = [...slugsOf(response.body)];
    expect(costOf(response).read).toBeLessThanOrEqual(100);
    for (let link = nextLink(response); link; link = nextLink(response)) {
      response = await bob.api.get(link);
      expect(costOf(response).read).toBeLessThanOrEqual(100);
      found.push(...slugsOf(response.body));
    }
    expect(found).toEqual(newestFirst((i) => i % 100 === 0));
  });
});

describe('while the index works through a burst of creates', () => {
  it('a search page stays within 100 RCU, and finds every post of the burst once the index has them', async () => {
    const marker = `burst${Date.now().toString(36)}`;
    const creates: Promise<ApiResponse>[] = [];
    const costs: number[] = [];
    for (let i = 0; i < 120; i++) {
      creates.push(alice.api.post('/posts', { json: { title: `Burst ${i} ${marker}`, description: `${ALPHABET} ${SPARSE}`, publish: true } }));
      if (i % 8 === 7) {
        await Promise.all(creates.slice(-8));
        const response = await bob.api.get('/posts', { query: { q: `${marker} kilo`, ...SUMMARIES } });
        expect(response.status).toBe(200);
        costs.push(costOf(response).read);
      }
    }
    const created = await Promise.all(creates);
    expect(created.every((response) => response.status === 201)).toBe(true);
    expect(Math.max(...costs)).toBeLessThanOrEqual(100);
    await api.streams!.caughtUp(120_000);
    const pages = await walk({ q: marker, ...SUMMARIES });
    expect(new Set(pages.flat())).toEqual(new Set(created.map((response) => (response.body as { slug: string }).slug)));
  });
});
