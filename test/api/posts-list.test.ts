import { beforeAll, describe, expect, it } from 'vitest';
import { setFeatured } from '#lib/posts/feature.ts';
import { type ApiClient, type ApiResponse, createPost, getWithBody, type TestUser, unique } from '../support/api.ts';
import { useApi } from '../support/fixture.ts';
import { NEXT_LINK, nextLink } from '../support/link.ts';

// GET /posts: published posts only, sorted, searched and paged, over HTTP against DynamoDB Local.
// The table is shared by every test of this file; each test gives its posts a word of its own and
// narrows the list to them with `q` (or checks properties that hold for the whole list).

const INVALID_PAGE = { detail: 'Invalid page.' };

const api = useApi({ users: ['alice', 'bob'] });
const { alice, bob } = api.users;

/** A lowercase word no other test uses. */
const word = (prefix = 'w') => unique(prefix);

/** A published post with a short body. */
const create = (client: ApiClient, form: Record<string, string>) => createPost(client, { description: 'body', publish: 'true', ...form });

/** Creates published posts one after the other (so `created` follows the order of titles). */
async function createMany(client: ApiClient, titles: string[]) {
  const posts: any[] = [];
  for (const title of titles) posts.push(await create(client, { title }));
  return posts;
}

async function list(client: ApiClient, query: Record<string, string> = {}) {
  const response = await client.get('/posts', { query });
  expect(response.status, response.text).toBe(200);
  return response;
}

const slugs = (posts: any[]) => posts.map((post) => post.slug);
const newestFirst = (posts: any[]) => [...posts].sort((a, b) => (a.created < b.created ? 1 : -1));

/** Follows `Link: rel="next"` from the first response; returns the pages. */
async function walk(client: ApiClient, first: ApiResponse<any>) {
  const pages: any[][] = [first.body];
  let link = nextLink(first);
  while (link) {
    const response = await client.get(link);
    expect(response.status, response.text).toBe(200);
    pages.push(response.body);
    link = nextLink(response);
    expect(pages.length).toBeLessThan(200);
  }
  return pages;
}

describe('GET /posts: what is listed', () => {
  it('lists published posts only, with every field', async () => {
    const w = word();
    const published = await create(alice.api, { title: `Shown ${w}` });
    const draft = await create(alice.api, { title: `Hidden ${w}`, publish: 'false' });
    const response = await list(bob.api, { q: w });
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(response.body).toEqual([published]);

    // Not even the author sees the draft in the list.
    expect(slugs((await list(alice.api, { q: w })).body)).toEqual([published.slug]);

    // Publishing it makes it appear; unpublishing removes it again.
    expect((await alice.api.put(`/posts/detail/${draft.slug}`, { form: { publish: 'true' } })).status).toBe(200);
    expect(slugs((await list(bob.api, { q: w })).body)).toEqual([draft.slug, published.slug]);
    expect((await alice.api.put(`/posts/detail/${published.slug}`, { form: { publish: 'false' } })).status).toBe(200);
    expect(slugs((await list(bob.api, { q: w })).body)).toEqual([draft.slug]);
  });

  it('has no drafts and no deleted posts in the whole list, newest first', async () => {
    const w = word();
    const draft = await create(bob.api, { title: `Whole draft ${w}`, publish: 'false' });
    const gone = await create(bob.api, { title: `Whole gone ${w}` });
    const kept = await create(bob.api, { title: `Whole kept ${w}` });
    expect((await bob.api.delete(`/posts/detail/${gone.slug}`)).status).toBe(204);

    const all = (await list(alice.api)).body;
    expect(all.every((post: any) => post.publish === true)).toBe(true);
    expect(slugs(all)).toContain(kept.slug);
    expect(slugs(all)).not.toContain(draft.slug);
    expect(slugs(all)).not.toContain(gone.slug);
    expect(slugs(all)).toEqual(slugs(newestFirst(all)));
    expect(new Set(slugs(all)).size).toBe(all.length);
  });
});

describe('GET /posts: sorting', () => {
  it('sorts newest first by default, for sort=newest and for unknown sort values', async () => {
    const w = word();
    const posts = await createMany(alice.api, [`N1 ${w}`, `N2 ${w}`, `N3 ${w}`]);
    const expected = slugs(posts).reverse();
    expect(slugs((await list(bob.api, { q: w })).body)).toEqual(expected);
    expect(slugs((await list(bob.api, { q: w, sort: 'newest' })).body)).toEqual(expected);
    expect(slugs((await list(bob.api, { q: w, sort: 'bogus' })).body)).toEqual(expected);
    expect(slugs((await list(bob.api, { q: w, sort: '' })).body)).toEqual(expected);
  });

  it('sort=featured lists only featured published posts, newest first', async () => {
    const w = word();
    const [a, b, c, d] = await createMany(alice.api, [`F1 ${w}`, `F2 ${w}`, `F3 ${w}`, `F4 ${w}`]);
    const draft = await create(alice.api, { title: `F draft ${w}`, publish: 'false' });
    expect((await list(bob.api, { q: w, sort: 'featured' })).body).toEqual([]);

    await setFeatured(a.slug, true);
    await setFeatured(c.slug, true);
    await setFeatured(draft.slug, true);
    const featured = (await list(bob.api, { q: w, sort: 'featured' })).body;
    expect(slugs(featured)).toEqual([c.slug, a.slug]);
    expect(featured.every((post: any) => post.is_featured === true)).toBe(true);

    // The other sorts still list every published post.
    expect(slugs((await list(bob.api, { q: w })).body)).toEqual([d.slug, c.slug, b.slug, a.slug]);

    // Over the whole table, the featured list holds featured posts only.
    const all = (await list(bob.api, { sort: 'featured' })).body;
    expect(all.length).toBeGreaterThanOrEqual(2);
    expect(all.every((post: any) => post.is_featured === true && post.publish === true)).toBe(true);

    // Publishing the featured draft adds it; unfeaturing removes a post.
    expect((await alice.api.put(`/posts/detail/${draft.slug}`, { form: { publish: 'true' } })).status).toBe(200);
    await setFeatured(a.slug, false);
    expect(slugs((await list(bob.api, { q: w, sort: 'featured' })).body)).toEqual([draft.slug, c.slug]);
  });

  it('sort=views orders by total_visitors, ties newest first', async () => {
    const w = word();
    const [a, b, c, d] = await createMany(alice.api, [`V1 ${w}`, `V2 ${w}`, `V3 ${w}`, `V4 ${w}`]);
    const viewers = await Promise.all([api.user('v'), api.user('v'), api.user('v')]);
    const view = (user: TestUser, post: any) => user.api.get(`/posts/detail/${post.slug}`);
    // b: 3 visitors; a and c: 2 each; d: none. Repeated views count once.
    for (const viewer of viewers) await view(viewer, b);
    await view(viewers[0]!, b);
    await view(viewers[0]!, a);
    await view(viewers[1]!, a);
    await view(viewers[1]!, a);
    await view(viewers[1]!, c);
    await view(viewers[2]!, c);

    const byViews = (await list(bob.api, { q: w, sort: 'views' })).body;
    expect(slugs(byViews)).toEqual([b.slug, c.slug, a.slug, d.slug]);
    expect(byViews.map((post: any) => post.total_visitors)).toEqual([3, 2, 2, 0]);

    // Four new visitors put d ahead of b.
    await view(viewers[0]!, d);
    await view(viewers[1]!, d);
    await view(viewers[2]!, d);
    await view(bob, d);
    expect(slugs((await list(bob.api, { q: w, sort: 'views' })).body)).toEqual([d.slug, b.slug, c.slug, a.slug]);

    // The whole list is ordered by visitors.
    const all = (await list(bob.api, { sort: 'views' })).body;
    const visitors = all.map((post: any) => post.total_visitors);
    expect(visitors).toEqual([...visitors].sort((x, y) => y - x));
  });

  it('sort=votes orders by rating_likes (all 0 in v1: newest first)', async () => {
    const w = word();
    const posts = await createMany(alice.api, [`R1 ${w}`, `R2 ${w}`, `R3 ${w}`]);
    // Visits do not change the votes order.
    await bob.api.get(`/posts/detail/${posts[0].slug}`);
    const byVotes = (await list(bob.api, { q: w, sort: 'votes' })).body;
    expect(slugs(byVotes)).toEqual(slugs(posts).reverse());
    expect(byVotes.every((post: any) => post.rating_likes === 0)).toBe(true);
  });

  it('sort=active orders by modified: an update moves a post to the front', async () => {
    const w = word();
    const [a, b, c] = await createMany(alice.api, [`A1 ${w}`, `A2 ${w}`, `A3 ${w}`]);
    expect(slugs((await list(bob.api, { q: w, sort: 'active' })).body)).toEqual([c.slug, b.slug, a.slug]);

    expect((await alice.api.put(`/posts/detail/${a.slug}`, { form: { description: `edited ${w}` } })).status).toBe(200);
    const active = (await list(bob.api, { q: w, sort: 'active' })).body;
    expect(slugs(active)).toEqual([a.slug, c.slug, b.slug]);
    // newest is unaffected by the update.
    expect(slugs((await list(bob.api, { q: w })).body)).toEqual([c.slug, b.slug, a.slug]);

    // A rename moves it too, under its new slug.
    const renamed = await alice.api.put(`/posts/detail/${b.slug}`, { form: { title: `A2 renamed ${w}` } });
    expect(renamed.status).toBe(200);
    expect(slugs((await list(bob.api, { q: w, sort: 'active' })).body)).toEqual([renamed.body.slug, a.slug, c.slug]);
  });
});

describe('GET /posts: search', () => {
  it('q finds the posts where each of its words begins a word of the title, description, keywords or meta_description', async () => {
    const w = word();
    const W = w.toUpperCase();
    const inTitle = await create(alice.api, { title: `Title ${W}suffix` });
    const inDescription = await create(alice.api, { title: `Desc ${word()}`, description: `some ${w} text` });
    const inKeywords = await create(alice.api, { title: `Kw ${word()}`, keywords: `a,${W},b` });
    const inMeta = await create(alice.api, { title: `Meta ${word()}`, meta_description: `about:${w}.` });
    const inMiddle = await create(alice.api, { title: `Middle x${w}` });
    const draft = await create(alice.api, { title: `Draft ${w}`, publish: 'false' });

    const expected = [inMeta.slug, inKeywords.slug, inDescription.slug, inTitle.slug];
    expect(slugs((await list(bob.api, { q: w })).body)).toEqual(expected);
    // Case does not matter, and a query word matches the words it begins.
    expect(slugs((await list(bob.api, { q: W })).body)).toEqual(expected);
    expect(slugs((await list(bob.api, { q: `${w}SUF` })).body)).toEqual([inTitle.slug]);
    // A query word that starts inside a word finds nothing; the text is not matched as a substring.
    expect(slugs((await list(bob.api, { q: w.slice(1) })).body)).toEqual([]);
    expect(slugs((await list(bob.api, { q: `x${w}` })).body)).toEqual([inMiddle.slug]);
    const found = slugs((await list(bob.api, { q: w })).body);
    expect(found).not.toContain(draft.slug);

    // A post stops matching when the matching text is edited away.
    expect((await alice.api.put(`/posts/detail/${inMeta.slug}`, { form: { meta_description: 'nothing here' } })).status).toBe(200);
    expect(slugs((await list(bob.api, { q: w })).body)).toEqual([inKeywords.slug, inDescription.slug, inTitle.slug]);
    // And starts matching when it gains a word, also once the index has caught up with both edits.
    expect((await alice.api.put(`/posts/detail/${inMeta.slug}`, { form: { keywords: `${w}more` } })).status).toBe(200);
    await api.streams!.caughtUp();
    expect(slugs((await list(bob.api, { q: w })).body)).toEqual([inMeta.slug, inKeywords.slug, inDescription.slug, inTitle.slug]);
  });

  it('q requires every word, in any order and apart; case and accents do not matter', async () => {
    const w = word();
    const both = await create(alice.api, { title: `Lambda tips for serverless apps ${w}` });
    const apart = await create(alice.api, { title: `Serverless ${w}`, description: 'written with lambdas' });
    const one = await create(alice.api, { title: `Lambda only ${w}` });
    const accented = await create(alice.api, { title: `Crème brûlée à la ﬁn ${w}`, description: 'Ångström' });
    const cjk = await create(alice.api, { title: `${w} 数据库设计` });

    expect(slugs((await list(bob.api, { q: `serverless lamb ${w}` })).body)).toEqual([apart.slug, both.slug]);
    expect(slugs((await list(bob.api, { q: `${w} LAMBDA` })).body)).toEqual([one.slug, apart.slug, both.slug]);
    // NFKD, marks removed, lower-cased: on both sides.
    expect(slugs((await list(bob.api, { q: `creme brulee fin angstr ${w}` })).body)).toEqual([accented.slug]);
    expect(slugs((await list(bob.api, { q: `CRÈME ${w}` })).body)).toEqual([accented.slug]);
    // Text without spaces is one word: found by its beginning only.
    expect(slugs((await list(bob.api, { q: `数据 ${w}` })).body)).toEqual([cjk.slug]);
    expect(slugs((await list(bob.api, { q: `库设 ${w}` })).body)).toEqual([]);
    // Punctuation separates words and is not one itself.
    expect(slugs((await list(bob.api, { q: `"${w}", (serverless)!` })).body)).toEqual([apart.slug, both.slug]);
  });

  it('q with no word lists what the request without q lists', async () => {
    await create(alice.api, { title: `Plain ${word()}` });
    await api.streams!.caughtUp();
    const without = await list(bob.api, { page_size: '5', sort: 'views' });
    for (const q of ['', '   ', '!?-+', '\u0000']) {
      const response = await list(bob.api, { q, page_size: '5', sort: 'views' });
      expect(response.status).toBe(200);
      expect(response.body).toEqual(without.body);
      expect(response.headers.get('link') === null).toBe(without.headers.get('link') === null);
    }
  });

  it('combines q with sort', async () => {
    const w = word();
    const [a, b] = await createMany(alice.api, [`Combo one ${w}`, `Combo two ${w}`]);
    const outsider = await create(alice.api, { title: `Combo outsider ${word()}` });
    await bob.api.get(`/posts/detail/${a.slug}`);
    await bob.api.get(`/posts/detail/${outsider.slug}`);
    expect(slugs((await list(bob.api, { q: w, sort: 'views' })).body)).toEqual([a.slug, b.slug]);

    await setFeatured(b.slug, true);
    await setFeatured(outsider.slug, true);
    expect(slugs((await list(bob.api, { q: w, sort: 'featured' })).body)).toEqual([b.slug]);

    expect((await alice.api.put(`/posts/detail/${a.slug}`, { form: { keywords: 'k' } })).status).toBe(200);
    expect(slugs((await list(bob.api, { q: w, sort: 'active' })).body)).toEqual([a.slug, b.slug]);
  });

  it('answers [] for page 1 of an empty result', async () => {
    const response = await list(bob.api, { q: word('nomatch') });
    expect(response.body).toEqual([]);
    expect(response.headers.get('link')).toBeNull();
    for (const sort of ['featured', 'views', 'votes', 'active']) {
      expect((await list(bob.api, { q: word('nomatch'), sort, page: '1' })).body).toEqual([]);
    }
    const second = await bob.api.get('/posts', { query: { q: word('nomatch'), page: '2' } });
    expect(second.status).toBe(404);
    expect(second.body).toEqual(INVALID_PAGE);
  });
});

describe('GET /posts: paging', () => {
  let w: string;
  let expected: string[];

  beforeAll(async () => {
    w = word();
    const posts = await createMany(
      alice.api,
      [1, 2, 3, 4, 5].map((n) => `Paged ${n} ${w}`),
    );
    expected = slugs(posts).reverse();
  });

  it('page_size=2 gives two posts and a Link to the next page', async () => {
    const response = await list(bob.api, { q: w, page_size: '2' });
    expect(slugs(response.body)).toEqual(expected.slice(0, 2));
    const link = nextLink(response);
    expect(link).toBeDefined();
    expect(new URL(link!).pathname).toBe(new URL(`${api.url}/posts`).pathname);
  });

  it('following the Links walks every post exactly once, in order', async () => {
    const pages = await walk(bob.api, await list(bob.api, { q: w, page_size: '2' }));
    expect(pages.map((page) => page.length)).toEqual([2, 2, 1]);
    expect(pages.flat().map((post) => post.slug)).toEqual(expected);
  });

  it('page=N gives the same page as following the Links', async () => {
    const pages = await walk(bob.api, await list(bob.api, { q: w, page_size: '2' }));
    for (const [i, page] of pages.entries()) {
      const byNumber = await list(bob.api, { q: w, page_size: '2', page: String(i + 1) });
      expect(byNumber.body).toEqual(page);
      expect(nextLink(byNumber) === undefined).toBe(i === pages.length - 1);
    }
  });

  it('the Link of a page reached by number continues after it', async () => {
    const second = await list(bob.api, { q: w, page_size: '2', page: '2' });
    const third = await bob.api.get(nextLink(second)!);
    expect(third.status).toBe(200);
    expect(slugs(third.body)).toEqual(expected.slice(4));
    expect(nextLink(third)).toBeUndefined();
  });

  it('walks the whole unfiltered list too', async () => {
    const everything = (await list(bob.api, { page_size: '100' })).body;
    expect(everything.length).toBeLessThanOrEqual(100);
    const pages = await walk(bob.api, await list(bob.api, { page_size: '3' }));
    expect(pages.slice(0, -1).every((page) => page.length === 3)).toBe(true);
    // Posts are only added by other tests in this file, never while this one runs.
    if (everything.length < 100) expect(pages.flat().map((post) => post.slug)).toEqual(slugs(everything));
  });

  it('keeps sort and q in the Links', async () => {
    await bob.api.get(`/posts/detail/${expected[4]}`);
    const first = await list(bob.api, { q: w, sort: 'views', page_size: '2' });
    const pages = await walk(bob.api, first);
    expect(pages.flat().map((post) => post.slug)).toEqual([expected[4], ...expected.slice(0, 4)]);
  });

  it('answers 404 Invalid page. past the end and for pages that are not positive integers', async () => {
    for (const page of ['4', '1000', '0', '-1', 'abc', '1.5']) {
      const response = await bob.api.get('/posts', { query: { q: w, page_size: '2', page } });
      expect(response.status, `page=${page}`).toBe(404);
      expect(response.body).toEqual(INVALID_PAGE);
    }
    // Unfiltered, far past the end: the skip reads in bounded calls (Limit is a 32-bit integer).
    for (const page of ['0', '-1', 'abc', '1000', '999999999']) {
      const response = await bob.api.get('/posts', { query: { page } });
      expect(response.status, `page=${page}`).toBe(404);
      expect(response.body).toEqual(INVALID_PAGE);
    }
  });

  it('answers 404 Invalid page. to a tampered cursor, never 500', async () => {
    const link = nextLink(await list(bob.api, { q: w, page_size: '2' }))!;
    const url = new URL(link);
    const cursor = url.searchParams.get('cursor');
    expect(cursor).toBeTruthy();
    const encode = (value: unknown) => Buffer.from(JSON.stringify(value), 'utf8').toString('base64url');
    // Keys of the right shape in plain JSON, as a v1 cursor was: what a forger would try.
    const forgedKey = { PK: 'ENTRY#1', SK: 'POSTS', ListPK: 'POSTS', CreatedSK: '2026-01-01T00:00:00.000000+00:00' };
    const bytes = Buffer.from(cursor!, 'base64url');
    const flipped = (at: number) => {
      const edited = Buffer.from(bytes);
      edited[at] = edited[at]! ^ 0x01;
      return edited.toString('base64url');
    };
    const tampered = [
      'garbage',
      '!!!',
      cursor!.slice(0, -3),
      `${cursor}AAAA`,
      flipped(0),
      flipped(Math.floor(bytes.length / 2)),
      flipped(bytes.length - 1),
      encode({}),
      encode([]),
      encode('x'),
      encode(null),
      encode(forgedKey),
      encode({ ...forgedKey, extra: 'x' }),
      encode(Object.fromEntries(Object.keys(forgedKey).map((k) => [k, 'x'.repeat(1100)]))),
    ];
    for (const value of tampered) {
      url.searchParams.set('cursor', value);
      const response = await bob.api.get(url.toString());
      expect(response.status, `cursor=${value.slice(0, 60)}`).toBe(404);
      expect(response.body).toEqual(INVALID_PAGE);
    }

    // A cursor of one sort given to another.
    const featuredUrl = new URL(link);
    featuredUrl.searchParams.set('sort', 'featured');
    const response = await bob.api.get(featuredUrl.toString());
    expect(response.status).toBe(404);
    expect(response.body).toEqual(INVALID_PAGE);
  });
});

describe('GET /posts: page size', () => {
  it('caps page_size at 100', async () => {
    const w = word();
    const titles = Array.from({ length: 101 }, (_, i) => `Cap ${i} ${w}`);
    const created: any[] = [];
    for (let i = 0; i < titles.length; i += 10) {
      created.push(...(await Promise.all(titles.slice(i, i + 10).map((title) => create(alice.api, { title })))));
    }
    const expected = slugs(newestFirst(created));
    // A search finds at once only the 10 posts changed last; the others once the index has them.
    await api.streams!.caughtUp();

    for (const query of [{ q: w }, { q: w, page_size: '101' }, { q: w, page_size: '1000' }] as Record<string, string>[]) {
      const first = await list(bob.api, query);
      expect(first.body).toHaveLength(100);
      expect(slugs(first.body)).toEqual(expected.slice(0, 100));
      const rest = await bob.api.get(nextLink(first)!);
      expect(rest.status).toBe(200);
      expect(slugs(rest.body)).toEqual(expected.slice(100));
      expect(nextLink(rest)).toBeUndefined();
    }
    const second = await list(bob.api, { q: w, page_size: '500', page: '2' });
    expect(slugs(second.body)).toEqual(expected.slice(100));
    expect(nextLink(second)).toBeUndefined();
  });
});

describe('GET /posts: search with paging', () => {
  it('fills every page with matching posts and links the rest', async () => {
    const w = word();
    const matching: any[] = [];
    // Matching posts interleaved with posts that do not match, by several authors.
    for (let i = 0; i < 7; i++) {
      matching.push(await create(i % 2 ? alice.api : bob.api, { title: `Needle ${i} ${w}` }));
      await create(alice.api, { title: `Hay ${i} ${word()}` });
      await create(bob.api, { title: `Hay more ${i} ${word()}` });
    }
    const expected = slugs(matching).reverse();
    // 21 posts: the oldest needles are not among the 10 changed last, so the index must have them.
    await api.streams!.caughtUp();

    const first = await list(bob.api, { q: w, page_size: '3' });
    const pages = await walk(bob.api, first);
    expect(pages.map((page) => page.length)).toEqual([3, 3, 1]);
    expect(pages.flat().map((post) => post.slug)).toEqual(expected);

    for (const [i, page] of pages.entries()) {
      expect((await list(bob.api, { q: w, page_size: '3', page: String(i + 1) })).body).toEqual(page);
    }
    const past = await bob.api.get('/posts', { query: { q: w, page_size: '3', page: '4' } });
    expect(past.status).toBe(404);
    expect(past.body).toEqual(INVALID_PAGE);

    // With exactly full pages the last one has no Link.
    const exact = await walk(bob.api, await list(bob.api, { q: w, page_size: '7' }));
    expect(exact.map((page) => page.length)).toEqual([7]);
  });

  it('fills pages across long runs of posts that do not match', async () => {
    const w = word();
    const oldest = await createMany(alice.api, [`Far 1 ${w}`, `Far 2 ${w}`]);
    // More non-matching published posts in between than one read of the index returns.
    for (let i = 0; i < 250; i += 10) {
      await Promise.all(Array.from({ length: 10 }, (_, j) => create(bob.api, { title: `Filler ${i + j} ${word()}` })));
    }
    const newest = await create(alice.api, { title: `Far 3 ${w}` });
    const expected = [newest.slug, oldest[1].slug, oldest[0].slug];

    const first = await list(bob.api, { q: w, page_size: '2' });
    expect(slugs(first.body)).toEqual(expected.slice(0, 2));
    const pages = await walk(bob.api, first);
    expect(pages.map((page) => page.length)).toEqual([2, 1]);
    expect(pages.flat().map((post) => post.slug)).toEqual(expected);

    expect(slugs((await list(bob.api, { q: w, page_size: '2', page: '2' })).body)).toEqual(expected.slice(2));
    expect(slugs((await list(bob.api, { q: w, page_size: '1', page: '3' })).body)).toEqual(expected.slice(2));
    expect((await bob.api.get('/posts', { query: { q: w, page_size: '2', page: '3' } })).status).toBe(404);
    expect(slugs((await list(bob.api, { q: w })).body)).toEqual(expected);
  });
});

describe('GET /posts: parameters in the body of the GET', () => {
  let w: string;
  let posts: any[];

  beforeAll(async () => {
    w = word();
    posts = await createMany(alice.api, [`Body 1 ${w}`, `Body 2 ${w}`, `Body 3 ${w}`]);
    // posts[0] has the most visitors: sort=views puts it first, unlike newest.
    await bob.api.get(`/posts/detail/${posts[0].slug}`);
  });

  it('reads q and sort from a form body', async () => {
    const response = await getWithBody(bob.api, '/posts', `sort=views&q=${w}`, 'application/x-www-form-urlencoded');
    expect(response.status).toBe(200);
    expect(slugs(response.body)).toEqual([posts[0].slug, posts[2].slug, posts[1].slug]);
  });

  it('reads q and sort from a JSON body', async () => {
    const response = await getWithBody(bob.api, '/posts', JSON.stringify({ q: w, sort: 'views' }), 'application/json');
    expect(response.status).toBe(200);
    expect(slugs(response.body)).toEqual([posts[0].slug, posts[2].slug, posts[1].slug]);
  });

  it('reads paging parameters from the body; the Link carries them on', async () => {
    const response = await getWithBody(bob.api, '/posts', `q=${w}&page_size=2`, 'application/x-www-form-urlencoded');
    expect(response.status).toBe(200);
    expect(slugs(response.body)).toEqual([posts[2].slug, posts[1].slug]);
    const link = NEXT_LINK.exec(response.link ?? '')?.[1];
    expect(link).toBeDefined();
    const rest = await bob.api.get(link!);
    expect(slugs(rest.body)).toEqual([posts[0].slug]);

    const second = await getWithBody(bob.api, '/posts', JSON.stringify({ q: w, page_size: 2, page: 2 }), 'application/json');
    expect(second.status).toBe(200);
    expect(slugs(second.body)).toEqual([posts[0].slug]);

    const invalid = await getWithBody(bob.api, '/posts', `q=${w}&page=abc`, 'application/x-www-form-urlencoded');
    expect(invalid.status).toBe(404);
    expect(invalid.body).toEqual(INVALID_PAGE);
  });

  it('prefers the query string over the body', async () => {
    const other = word();
    const otherPost = await create(alice.api, { title: `Body other ${other}` });

    const byQuery = await getWithBody(bob.api, `/posts?q=${other}`, `q=${w}`, 'application/x-www-form-urlencoded');
    expect(byQuery.status).toBe(200);
    expect(slugs(byQuery.body)).toEqual([otherPost.slug]);

    const sortByQuery = await getWithBody(bob.api, `/posts?sort=newest`, JSON.stringify({ q: w, sort: 'views' }), 'application/json');
    expect(sortByQuery.status).toBe(200);
    expect(slugs(sortByQuery.body)).toEqual([posts[2].slug, posts[1].slug, posts[0].slug]);

    // Each parameter falls back on its own: q from the query string, sort from the body.
    const mixed = await getWithBody(bob.api, `/posts?q=${w}`, 'sort=views', 'application/x-www-form-urlencoded');
    expect(slugs(mixed.body)).toEqual([posts[0].slug, posts[2].slug, posts[1].slug]);
  });
});

describe('GET /posts: authentication', () => {
  it('answers 401 without a token', async () => {
    const response = await api.client().get('/posts');
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ detail: 'Authentication credentials were not provided.' });
  });
});
