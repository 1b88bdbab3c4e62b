import { request as httpRequest } from 'node:http';
import { describe, expect, it } from 'vitest';
import { deactivateUser } from '#lib/auth/deactivate.ts';
import { setFeatured } from '#lib/posts/feature.ts';
import { createPost, type ApiClient, type TestUser } from '../support/api.ts';
import { POST_FIELDS, PROFILE_FIELDS } from '../support/contract.ts';
import { useApi } from '../support/fixture.ts';
import { responseValidator } from '../support/openapi.ts';
import { NEXT_LINK, nextLink } from '../support/link.ts';
import { expectNewestFirst, get, listHelpers, view, word, type Post } from '../support/post-lists.ts';

// docs/api.md, endpoints 11 to 13 and Paging, black-box over HTTP:
//   GET /posts/tagged/{slug}      the published posts carrying the tag; unknown tag 404
//   GET /posts/author/{username}  the user's published posts, also of a deactivated user; unknown user 404
//   GET /posts/me                 the caller's own posts, published and drafts; publish=true|false
// each with exactly the parameters and answers of GET /posts (q, sort, page, page_size, cursor, also
// from a form or JSON body of the GET; a bare array, at most 100 a page, Link rel="next", 404
// "Invalid page." past the end; sort=featured keeps only featured posts); and the changes to v1:
// a deactivated user's profile is 200, the new field limits, pages that fit a Lambda response. The
// lists' counters under concurrent requests: posts-lists-counters.test.ts (run alone).
//
// Each test makes the lists it reads its own (a new tag, a new author), so it can expect their
// whole contents. The only calls outside the API are the administrator's (featuring a post,
// deactivating a user), through the code the admin CLI runs.

const NOT_FOUND = { detail: 'Not found.' };
const INVALID_PAGE = { detail: 'Invalid page.' };
const NO_CREDENTIALS = { detail: 'Authentication credentials were not provided.' };
const INVALID_TOKEN = { detail: 'Invalid token.' };
const NOT_BOOLEAN = { publish: ['Must be a valid boolean.'] };
/** What a Lambda function may return, the result object's JSON included. */
const LAMBDA_RESPONSE_LIMIT = 6 * 1024 * 1024;

const api = useApi({ users: ['alice', 'bob'] });
const { alice, bob } = api.users;
// Read when a test runs: useApi fills alice and api in its beforeAll.
const { newTag, newUsers, walk } = listHelpers(api, alice);

const slugs = (posts: Post[]) => posts.map((post) => post.slug);

/** The slugs of a whole list, following Link. */
async function all(client: ApiClient, path: string, query: Record<string, string> = {}): Promise<string[]> {
  return slugs((await walk(client, path, query)).posts);
}

async function expectStatus(client: ApiClient, path: string, query: Record<string, string>, status: number, body: unknown) {
  const response = await client.get(path, { query });
  expect(response.status, `GET ${path} ${JSON.stringify(query)}: ${response.text.slice(0, 300)}`).toBe(status);
  expect(response.body).toEqual(body);
}

/**
 * A GET with a body (fetch refuses one on GET, so node:http sends it); the response is checked
 * against the OpenAPI document as every other response of the suite.
 */
function getWithBody(client: ApiClient, path: string, body: string, contentType: string) {
  return new Promise<{ status: number; headers: Headers; body: any }>((done, fail) => {
    const url = `${client.baseUrl}${path}`;
    const request = httpRequest(
      new URL(url),
      {
        method: 'GET',
        headers: { Accept: 'application/json', Authorization: `Token ${client.token}`, 'Content-Type': contentType, 'Content-Length': Buffer.byteLength(body) },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          const headers = new Headers();
          for (const [name, value] of Object.entries(response.headers)) {
            if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
          }
          try {
            responseValidator().check({ method: 'GET', url, status: response.statusCode ?? 0, headers, text });
            done({ status: response.statusCode ?? 0, headers, body: text ? JSON.parse(text) : null });
          } catch (error) {
            fail(error);
          }
        });
        response.on('error', fail);
      },
    );
    request.on('error', fail);
    request.end(body);
  });
}

// ---------------------------------------------------------------------------------------------
// The three lists, each made fresh for a test: its path, who reads it, who writes its posts.

interface ListUnderTest {
  kind: 'tagged' | 'author' | 'me';
  path: string;
  /** Reads the list (for /posts/me: its owner). */
  reader: TestUser;
  /** Writes the posts that belong to the list. */
  author: TestUser;
  /** Form fields that make a post of `author` belong to the list (its tag). */
  fields: Record<string, string>;
}

const LISTS = {
  async tagged(): Promise<ListUnderTest> {
    const [author, tag] = await Promise.all([api.user('tagger'), newTag()]);
    return { kind: 'tagged', path: `/posts/tagged/${tag.slug}`, reader: bob, author, fields: { tags: tag.title } };
  },
  async author(): Promise<ListUnderTest> {
    const author = await api.user('author');
    return { kind: 'author', path: `/posts/author/${author.username}`, reader: bob, author, fields: {} };
  },
  async me(): Promise<ListUnderTest> {
    const owner = await api.user('owner');
    return { kind: 'me', path: '/posts/me', reader: owner, author: owner, fields: {} };
  },
};
const KINDS = Object.keys(LISTS) as (keyof typeof LISTS)[];

/** A post of the list (published unless `publish: 'false'` is given). */
function add(list: ListUnderTest, form: Record<string, string> = {}): Promise<Post> {
  return createPost(list.author.api, { title: `Post ${word('p')}`, description: 'body', publish: 'true', ...list.fields, ...form });
}

/** Posts of the list created one after the other, so `created` follows their order. */
async function addMany(list: ListUnderTest, count: number, form: Record<string, string> = {}): Promise<Post[]> {
  const posts: Post[] = [];
  for (let i = 0; i < count; i++) posts.push(await add(list, { title: `Post ${i + 1} ${word('p')}`, ...form }));
  return posts;
}

// ---------------------------------------------------------------------------------------------

describe.each(KINDS)('the %s list: what GET /posts offers', (kind) => {
  const open = () => LISTS[kind]();

  it('answers page 1 of an empty list with [] and no Link, for every sort; page 2 is 404 Invalid page.', async () => {
    const list = await open();
    for (const sort of [undefined, 'newest', 'featured', 'views', 'votes', 'active']) {
      const response = await get(list.reader.api, list.path, sort ? { sort } : {});
      expect(response.body, `sort=${sort}`).toEqual([]);
      expect(response.headers.get('link')).toBeNull();
      expect((await get(list.reader.api, list.path, { ...(sort ? { sort } : {}), page: '1' })).body).toEqual([]);
    }
    await expectStatus(list.reader.api, list.path, { page: '2' }, 404, INVALID_PAGE);
    await expectStatus(list.reader.api, list.path, { q: word('nothing') }, 200, []);
  });

  it('lists its posts newest first, each exactly as GET /posts/detail/{slug} shows it, counters included', async () => {
    const list = await open();
    const posts = await addMany(list, 3, { keywords: 'k1, k2', meta_description: 'meta' });
    // A visitor's first view counts; the detail it gets back is the post as it now is.
    const [visitor] = await newUsers(1, 'visitor');
    const details: Post[] = [];
    for (const post of posts) {
      const response = await view(visitor!, post);
      expect(response.status).toBe(200);
      expect(response.body.total_visitors).toBe(1);
      details.push(response.body);
    }
    const expected = [...details].reverse();
    const response = await get(list.reader.api, list.path);
    expect(response.body).toEqual(expected);
    for (const post of response.body) expect(Object.keys(post)).toEqual(POST_FIELDS);
    // newest is the default, and what an unknown or empty sort gets.
    for (const sort of ['newest', 'bogus', '']) expect((await get(list.reader.api, list.path, { sort })).body, `sort=${sort}`).toEqual(expected);
    // Reading a list records no visit.
    expect((await get(list.reader.api, list.path)).body.map((post) => post.total_visitors)).toEqual([1, 1, 1]);
    // publish is a parameter of /posts/me only: elsewhere, as any unknown parameter, it changes nothing.
    if (kind !== 'me') for (const publish of ['false', 'maybe']) expect((await get(list.reader.api, list.path, { publish })).body, publish).toEqual(expected);
  });

  it('sort=featured keeps only featured posts, newest first', async () => {
    const list = await open();
    const [a, b, c, d] = await addMany(list, 4);
    expect((await get(list.reader.api, list.path, { sort: 'featured' })).body).toEqual([]);
    await setFeatured(a!.slug, true);
    await setFeatured(c!.slug, true);
    const featured = (await get(list.reader.api, list.path, { sort: 'featured' })).body;
    expect(slugs(featured)).toEqual([c!.slug, a!.slug]);
    expect(featured.every((post) => post.is_featured === true)).toBe(true);
    // The other sorts still list every post.
    expect(slugs((await get(list.reader.api, list.path)).body)).toEqual(slugs([d!, c!, b!, a!]));
    // Unfeaturing takes a post out, featuring another puts it in.
    await setFeatured(a!.slug, false);
    await setFeatured(d!.slug, true);
    expect(slugs((await get(list.reader.api, list.path, { sort: 'featured' })).body)).toEqual([d!.slug, c!.slug]);
  });

  it('sort=views orders by total_visitors, ties newest first, with exact counts', async () => {
    const list = await open();
    const [a, b, c, d] = await addMany(list, 4);
    const viewers = await newUsers(4, 'viewer');
    // b: 3 visitors; a and c: 2 each; d: none. A repeated view counts once.
    for (const viewer of viewers.slice(0, 3)) expect((await view(viewer, b!)).status).toBe(200);
    await view(viewers[0]!, b!);
    await view(viewers[0]!, a!);
    await view(viewers[1]!, a!);
    await view(viewers[1]!, a!);
    await view(viewers[1]!, c!);
    await view(viewers[2]!, c!);

    const byViews = (await get(list.reader.api, list.path, { sort: 'views' })).body;
    expect(slugs(byViews)).toEqual(slugs([b!, c!, a!, d!]));
    expect(byViews.map((post) => post.total_visitors)).toEqual([3, 2, 2, 0]);

    // Four visitors put d ahead of b.
    for (const viewer of viewers) await view(viewer, d!);
    const after = (await get(list.reader.api, list.path, { sort: 'views' })).body;
    expect(slugs(after)).toEqual(slugs([d!, b!, c!, a!]));
    expect(after.map((post) => post.total_visitors)).toEqual([4, 3, 2, 2]);
    // The same counts in every sort of the list.
    const counts = Object.fromEntries(after.map((post) => [post.slug, post.total_visitors]));
    for (const sort of ['newest', 'votes', 'active']) {
      for (const post of (await get(list.reader.api, list.path, { sort })).body) expect(post.total_visitors, `${sort} ${post.slug}`).toBe(counts[post.slug]);
    }
  });

  it('sort=votes orders by rating_likes, ties newest first', async () => {
    const list = await open();
    const posts = await addMany(list, 3);
    await view(alice, posts[0]!); // visits do not change the votes order
    const byVotes = (await get(list.reader.api, list.path, { sort: 'votes' })).body;
    const expected = [...posts].sort((x, y) => y.rating_likes - x.rating_likes || (x.created < y.created ? 1 : -1));
    expect(slugs(byVotes)).toEqual(slugs(expected));
  });

  it('sort=active orders by modified: an update or a rename moves a post to the front', async () => {
    const list = await open();
    const [a, b, c] = await addMany(list, 3);
    expect(slugs((await get(list.reader.api, list.path, { sort: 'active' })).body)).toEqual(slugs([c!, b!, a!]));

    expect((await list.author.api.put(`/posts/detail/${a!.slug}`, { form: { description: 'edited' } })).status).toBe(200);
    expect(slugs((await get(list.reader.api, list.path, { sort: 'active' })).body)).toEqual(slugs([a!, c!, b!]));
    // newest does not move.
    expect(slugs((await get(list.reader.api, list.path)).body)).toEqual(slugs([c!, b!, a!]));

    const renamed = await list.author.api.put(`/posts/detail/${b!.slug}`, { form: { title: `Renamed ${word('r')}` } });
    expect(renamed.status).toBe(200);
    const active = (await get(list.reader.api, list.path, { sort: 'active' })).body;
    expect(slugs(active)).toEqual([renamed.body.slug, a!.slug, c!.slug]);
    expect(active[0]).toEqual(renamed.body);
  });

  it('pages: page_size, Link with a cursor to the end (every post once), page=N, 404 Invalid page. past the end', async () => {
    const list = await open();
    const expected = slugs((await addMany(list, 7)).reverse());

    const first = await get(list.reader.api, list.path, { page_size: '3' });
    expect(slugs(first.body)).toEqual(expected.slice(0, 3));
    const { pages, posts } = await walk(list.reader.api, list.path, { page_size: '3' }, 3);
    expect(pages.map((page) => page.length)).toEqual([3, 3, 1]);
    expect(slugs(posts)).toEqual(expected);

    // Page by number: the same pages; the last has no Link.
    for (const [i, page] of pages.entries()) {
      const byNumber = await get(list.reader.api, list.path, { page_size: '3', page: String(i + 1) });
      expect(slugs(byNumber.body)).toEqual(slugs(page));
      expect(nextLink(byNumber) === undefined, `page ${i + 1}`).toBe(i === pages.length - 1);
    }
    // The Link of a page reached by number continues after it.
    const third = await list.reader.api.get(nextLink(await get(list.reader.api, list.path, { page_size: '3', page: '2' }))!);
    expect(slugs(third.body)).toEqual(expected.slice(6));

    for (const page of ['4', '1000', '0', '-1', 'abc', '1.5']) await expectStatus(list.reader.api, list.path, { page_size: '3', page }, 404, INVALID_PAGE);
    // A page_size that is not a positive integer is ignored; exactly full pages end without a Link.
    for (const pageSize of ['0', 'abc', '-2']) expect(slugs((await get(list.reader.api, list.path, { page_size: pageSize })).body)).toEqual(expected);
    expect((await walk(list.reader.api, list.path, { page_size: '7' })).pages.map((page) => page.length)).toEqual([7]);
  });

  it('keeps sort and q in its Links', async () => {
    const list = await open();
    const w = word('q');
    const [a, b, c, d] = await addMany(list, 4, { description: `about ${w}` });
    await add(list, { description: 'no match here' });
    const [viewer] = await newUsers(1, 'viewer');
    await view(viewer!, b!);
    const first = await get(list.reader.api, list.path, { q: w, sort: 'views', page_size: '1' });
    const link = new URL(nextLink(first)!);
    expect(link.searchParams.get('q')).toBe(w);
    expect(link.searchParams.get('sort')).toBe('views');
    expect(link.searchParams.get('page')).toBe('2');
    expect(await all(list.reader.api, list.path, { q: w, sort: 'views', page_size: '1' })).toEqual(slugs([b!, d!, c!, a!]));
  });

  it('refuses a cursor of another list with 404 Invalid page.', async () => {
    const [list, other] = await Promise.all([open(), open()]);
    await addMany(list, 3);
    await addMany(other, 3);
    const link = new URL(nextLink(await get(list.reader.api, list.path, { page_size: '1' }))!);
    const cursor = link.searchParams.get('cursor')!;

    // The cursor of /posts (the same sort, the same page_size) on this list.
    const fromPosts = new URL(nextLink(await get(list.reader.api, '/posts', { page_size: '1' }))!).searchParams.get('cursor')!;
    await expectStatus(list.reader.api, list.path, { page_size: '1', page: '2', cursor: fromPosts }, 404, INVALID_PAGE);
    // This list's cursor under another sort or q.
    await expectStatus(list.reader.api, list.path, { page_size: '1', page: '2', cursor, sort: 'views' }, 404, INVALID_PAGE);
    await expectStatus(list.reader.api, list.path, { page_size: '1', page: '2', cursor, q: word('other') }, 404, INVALID_PAGE);
    await expectStatus(list.reader.api, list.path, { page_size: '1', page: '2', cursor: `${cursor.slice(0, -2)}xx` }, 404, INVALID_PAGE);

    if (kind === 'me') {
      // The same list with a publish filter, and the author's public list of the same posts.
      await expectStatus(list.reader.api, list.path, { page_size: '1', page: '2', cursor, publish: 'true' }, 404, INVALID_PAGE);
      const published = new URL(nextLink(await get(list.reader.api, list.path, { page_size: '1', publish: 'true' }))!).searchParams.get('cursor')!;
      await expectStatus(list.reader.api, list.path, { page_size: '1', page: '2', cursor: published }, 404, INVALID_PAGE);
      const fromAuthor = nextLink(await get(list.reader.api, `/posts/author/${list.author.username}`, { page_size: '1' }));
      if (fromAuthor)
        await expectStatus(
          list.reader.api,
          list.path,
          { page_size: '1', page: '2', cursor: new URL(fromAuthor).searchParams.get('cursor')!, publish: 'true' },
          404,
          INVALID_PAGE,
        );
      // Another user following this user's Link never sees this user's posts.
      const response = await other.reader.api.get(link.toString());
      expect([200, 404], response.text).toContain(response.status);
      if (response.status === 200) for (const post of response.body) expect(post.author).toBe(other.author.username);
      else expect(response.body).toEqual(INVALID_PAGE);
    } else {
      // The same cursor on another tag's or author's list.
      await expectStatus(list.reader.api, other.path, { page_size: '1', page: '2', cursor }, 404, INVALID_PAGE);
    }
  });

  it('gives opaque, tamper-evident cursors: any edit is 404 Invalid page., and the list is not readable in them (docs/api.md, Paging)', async () => {
    const list = await open();
    await addMany(list, 3);
    const link = new URL(nextLink(await get(list.reader.api, list.path, { page_size: '1' }))!);
    const cursor = link.searchParams.get('cursor')!;
    const bytes = Buffer.from(cursor, 'base64url');
    const decoded = bytes.toString('utf8');
    const owner = kind === 'tagged' ? list.path.split('/').at(-1)! : list.author.username;
    expect(decoded, 'the cursor names its list in readable form').not.toContain(owner);
    expect(decoded).not.toMatch(/ENTRY#|POST#|TAG#|USER#/);
    // One bit changed anywhere in the cursor: refused.
    const accepted: number[] = [];
    const positions = [...new Set(Array.from({ length: 24 }, (_, i) => Math.floor((i * bytes.length) / 24)))];
    for (const position of positions) {
      const edited = Buffer.from(bytes);
      edited[position]! ^= 1;
      link.searchParams.set('cursor', edited.toString('base64url'));
      const response = await list.reader.api.get(link.toString());
      if (response.status !== 404) accepted.push(position);
      else expect(response.body).toEqual(INVALID_PAGE);
    }
    expect(accepted, `edited cursors accepted (byte positions of ${bytes.length})`).toEqual([]);
  });

  it('reads q, sort and the paging parameters from a form or JSON body of the GET; the query string wins', async () => {
    const list = await open();
    const w = word('q');
    const [a, b, c] = await addMany(list, 3, { title: `Body ${w}` });
    await add(list, { title: `Other ${word('o')}` });
    await view(alice, a!); // a first by views, last by newest
    const byViews = slugs([a!, c!, b!]);

    const form = await getWithBody(list.reader.api, list.path, `sort=views&q=${w}`, 'application/x-www-form-urlencoded');
    expect(form.status).toBe(200);
    expect(slugs(form.body)).toEqual(byViews);
    const json = await getWithBody(list.reader.api, list.path, JSON.stringify({ q: w, sort: 'views' }), 'application/json');
    expect(json.status).toBe(200);
    expect(slugs(json.body)).toEqual(byViews);

    // page_size from the body: the Link carries the parameters on in its query string.
    const paged = await getWithBody(list.reader.api, list.path, JSON.stringify({ q: w, page_size: 2 }), 'application/json');
    expect(slugs(paged.body)).toEqual(slugs([c!, b!]));
    const link = new URL(NEXT_LINK.exec(paged.headers.get('link') ?? '')![1]!);
    expect(link.searchParams.get('q')).toBe(w);
    expect(slugs((await get(list.reader.api, link.toString())).body)).toEqual([a!.slug]);
    const second = await getWithBody(list.reader.api, list.path, `q=${w}&page_size=2&page=2`, 'application/x-www-form-urlencoded');
    expect(slugs(second.body)).toEqual([a!.slug]);
    const past = await getWithBody(list.reader.api, list.path, `q=${w}&page=3`, 'application/x-www-form-urlencoded');
    expect(past.status).toBe(404);
    expect(past.body).toEqual(INVALID_PAGE);

    // The query string first, each parameter on its own.
    const mixed = await getWithBody(list.reader.api, `${list.path}?q=${w}&sort=newest`, `q=nothing&sort=views`, 'application/x-www-form-urlencoded');
    expect(slugs(mixed.body)).toEqual(slugs([c!, b!, a!]));
    const halves = await getWithBody(list.reader.api, `${list.path}?q=${w}`, 'sort=views', 'application/x-www-form-urlencoded');
    expect(slugs(halves.body)).toEqual(byViews);
  });

  it('q: a case-insensitive match in the title, description, keywords or meta_description; combines with sort', async () => {
    const list = await open();
    const w = word('q');
    const W = w.toUpperCase();
    const inTitle = await add(list, { title: `Title ${W} here` });
    const inDescription = await add(list, { description: `some ${w} text` });
    const inKeywords = await add(list, { keywords: `a, ${W}, b` });
    const inMeta = await add(list, { meta_description: `About ${w}.` });
    const other = await add(list, { description: `${w.slice(0, 5)} and more` });
    const draft = await add(list, { title: `Draft ${w}`, publish: 'false' });

    const published = slugs([inMeta, inKeywords, inDescription, inTitle]);
    const expected = kind === 'me' ? [draft.slug, ...published] : published;
    expect(slugs((await get(list.reader.api, list.path, { q: w })).body)).toEqual(expected);
    expect(slugs((await get(list.reader.api, list.path, { q: W })).body)).toEqual(expected);
    expect(slugs((await get(list.reader.api, list.path, { q: w })).body)).not.toContain(other.slug);
    // An empty q filters nothing.
    expect((await get(list.reader.api, list.path, { q: '' })).body).toHaveLength(kind === 'me' ? 6 : 5);

    // With sort: the most viewed match first.
    await view(alice, inTitle);
    expect(slugs((await get(list.reader.api, list.path, { q: w, sort: 'views' })).body)[0]).toBe(inTitle.slug);
    await setFeatured(inKeywords.slug, true);
    await setFeatured(other.slug, true);
    expect(slugs((await get(list.reader.api, list.path, { q: w, sort: 'featured' })).body)).toEqual([inKeywords.slug]);

    // Editing the matching text away takes a post out.
    expect((await list.author.api.put(`/posts/detail/${inMeta.slug}`, { form: { meta_description: 'nothing' } })).status).toBe(200);
    expect(slugs((await get(list.reader.api, list.path, { q: w })).body)).not.toContain(inMeta.slug);
  });

  it('answers HEAD like GET, without a body', async () => {
    const list = await open();
    await addMany(list, 2);
    const got = await get(list.reader.api, list.path, { page_size: '1' });
    const head = await list.reader.api.request('HEAD', list.path, { query: { page_size: '1' } });
    expect(head.status).toBe(200);
    expect(head.text).toBe('');
    expect(head.headers.get('link')).toBe(got.headers.get('link'));
    expect(head.headers.get('content-type')).toMatch(/^application\/json/);
    const past = await list.reader.api.request('HEAD', list.path, { query: { page: '9' } });
    expect(past.status).toBe(404);
    expect(past.text).toBe('');
  });

  it('answers 401 without a token, with a malformed header or with an unknown token', async () => {
    const list = await open();
    await add(list);
    for (const method of ['GET', 'HEAD']) {
      const none = await api.client().request(method, list.path);
      expect(none.status).toBe(401);
      expect(none.headers.get('www-authenticate')).toBe('Token');
      if (method === 'GET') expect(none.body).toEqual(NO_CREDENTIALS);
      const bearer = await api.client().request(method, list.path, { headers: { Authorization: `Bearer ${list.reader.token}` } });
      expect(bearer.status).toBe(401);
      if (method === 'GET') expect(bearer.body).toEqual(NO_CREDENTIALS);
      const unknown = await api.client('0'.repeat(40)).request(method, list.path);
      expect(unknown.status).toBe(401);
      if (method === 'GET') expect(unknown.body).toEqual(INVALID_TOKEN);
    }
  });
});

describe('at most 100 posts a page', () => {
  it('caps page_size at 100 in each of the three lists; the Link gives the rest', { timeout: 180_000 }, async () => {
    const [author] = await newUsers(1, 'prolific');
    const tag = await newTag();
    const created: Post[] = [];
    for (let i = 0; i < 101; i += 10) {
      created.push(
        ...(await Promise.all(
          Array.from({ length: Math.min(10, 101 - i) }, (_, j) =>
            createPost(author!.api, { title: `Many ${i + j} ${word()}`, description: 'x', tags: tag.title, publish: 'true' }),
          ),
        )),
      );
    }
    for (const [reader, path] of [
      [bob, `/posts/tagged/${tag.slug}`],
      [bob, `/posts/author/${author!.username}`],
      [author!, '/posts/me'],
    ] as const) {
      let oldest: string | undefined;
      for (const query of [{}, { page_size: '101' }, { page_size: '1000' }] as Record<string, string>[]) {
        const label = `${path} ${JSON.stringify(query)}`;
        const first = await get(reader.api, path, query);
        expect(first.body, label).toHaveLength(100);
        const rest = await get(reader.api, nextLink(first)!);
        expect(rest.body, label).toHaveLength(1);
        expect(nextLink(rest), label).toBeUndefined();
        expectNewestFirst([...first.body, ...rest.body], created, label);
        oldest ??= rest.body[0]!.slug;
        expect(rest.body[0]!.slug, label).toBe(oldest);
      }
      expect(slugs((await get(reader.api, path, { page: '2' })).body), path).toEqual([oldest]);
      await expectStatus(reader.api, path, { page: '3' }, 404, INVALID_PAGE);
    }
  });
});

describe('GET /posts/tagged/{slug}', () => {
  it('lists the published posts carrying the tag, of every author; never a draft, not even to its author', async () => {
    const [tag, otherTag] = await Promise.all([newTag(), newTag()]);
    const both = `${tag.title}, ${otherTag.title}`;
    const byAlice = await createPost(alice.api, { title: `Tagged A ${word()}`, description: 'x', tags: tag.title, publish: 'true' });
    const byBob = await createPost(bob.api, { title: `Tagged B ${word()}`, description: 'x', tags: both, publish: 'true' });
    const onlyOther = await createPost(bob.api, { title: `Other tag ${word()}`, description: 'x', tags: otherTag.title, publish: 'true' });
    const draft = await createPost(alice.api, { title: `Tagged draft ${word()}`, description: 'x', tags: tag.title, publish: 'false' });
    const untagged = await createPost(alice.api, { title: `Untagged ${word()}`, description: 'x', publish: 'true' });

    for (const reader of [alice, bob]) {
      expect(slugs((await get(reader.api, `/posts/tagged/${tag.slug}`)).body), reader.username).toEqual([byBob.slug, byAlice.slug]);
    }
    expect(slugs((await get(alice.api, `/posts/tagged/${otherTag.slug}`)).body)).toEqual([onlyOther.slug, byBob.slug]);
    // Tags matched case-insensitively by title land in the same list.
    const lower = await createPost(bob.api, { title: `Lower ${word()}`, description: 'x', tags: tag.title.toLowerCase(), publish: 'true' });
    expect(slugs((await get(alice.api, `/posts/tagged/${tag.slug}`)).body)).toEqual([lower.slug, byBob.slug, byAlice.slug]);
    // The tag's total_posts counts what its list holds.
    expect((await alice.api.get(`/tags/detail/${tag.slug}`)).body.total_posts).toBe(3);
    for (const sort of ['newest', 'featured', 'views', 'votes', 'active']) {
      const listed = slugs((await get(alice.api, `/posts/tagged/${tag.slug}`, { sort })).body);
      expect(listed, sort).not.toContain(draft.slug);
      expect(listed, sort).not.toContain(untagged.slug);
    }
  });

  it('lists [] for a tag whose posts are all drafts (even a featured one)', async () => {
    const tag = await newTag();
    const draft = await createPost(alice.api, { title: `Only draft ${word()}`, description: 'x', tags: tag.title, publish: 'false' });
    await setFeatured(draft.slug, true);
    for (const sort of ['newest', 'featured', 'views']) expect((await get(alice.api, `/posts/tagged/${tag.slug}`, { sort })).body).toEqual([]);
  });

  it('answers 404 Not found. for an unknown tag, also with parameters, a body or HEAD', async () => {
    const slug = word('nosuchtag');
    await expectStatus(bob.api, `/posts/tagged/${slug}`, {}, 404, NOT_FOUND);
    await expectStatus(bob.api, `/posts/tagged/${slug}`, { sort: 'views', q: 'x', page: '2' }, 404, NOT_FOUND);
    await expectStatus(bob.api, '/posts/tagged/Not_A_Slug', {}, 404, NOT_FOUND);
    const withBody = await getWithBody(bob.api, `/posts/tagged/${slug}`, JSON.stringify({ sort: 'views' }), 'application/json');
    expect(withBody.status).toBe(404);
    expect(withBody.body).toEqual(NOT_FOUND);
    expect((await bob.api.request('HEAD', `/posts/tagged/${slug}`)).status).toBe(404);
    // A post's slug is not a tag's.
    const post = await createPost(alice.api, { title: `Not a tag ${word()}`, description: 'x', publish: 'true' });
    await expectStatus(bob.api, `/posts/tagged/${post.slug}`, {}, 404, NOT_FOUND);
  });
});

describe('GET /posts/author/{username}', () => {
  it("lists the user's published posts only, to anyone, the author included", async () => {
    const [author] = await newUsers(1, 'writer');
    const published = [];
    for (let i = 0; i < 3; i++) published.push(await createPost(author!.api, { title: `Mine ${i} ${word()}`, description: 'x', publish: 'true' }));
    const draft = await createPost(author!.api, { title: `Draft ${word()}`, description: 'x' });
    await createPost(bob.api, { title: `Someone else ${word()}`, description: 'x', publish: 'true' });
    const expected = slugs([...published].reverse());
    for (const reader of [author!, bob]) {
      expect(slugs((await get(reader.api, `/posts/author/${author!.username}`)).body), reader.username).toEqual(expected);
    }
    expect((await get(bob.api, `/posts/author/${author!.username}`)).body.every((post) => post.author === author!.username && post.publish)).toBe(true);
    const profile = await bob.api.get(`/users/detail/${author!.username}`);
    expect(profile.body.total_posts).toBe(3);
    // Published, the draft appears.
    expect((await author!.api.put(`/posts/detail/${draft.slug}`, { form: { publish: 'true' } })).status).toBe(200);
    expect(slugs((await get(bob.api, `/posts/author/${author!.username}`)).body)).toEqual([draft.slug, ...expected]);
  });

  it('answers 404 Not found. for an unknown user, also with parameters, a body or HEAD', async () => {
    const username = word('nosuchuser');
    await expectStatus(bob.api, `/posts/author/${username}`, {}, 404, NOT_FOUND);
    await expectStatus(bob.api, `/posts/author/${username}`, { sort: 'featured', page: '3' }, 404, NOT_FOUND);
    const withBody = await getWithBody(bob.api, `/posts/author/${username}`, 'sort=views', 'application/x-www-form-urlencoded');
    expect(withBody.status).toBe(404);
    expect(withBody.body).toEqual(NOT_FOUND);
    expect((await bob.api.request('HEAD', `/posts/author/${username}`)).status).toBe(404);
    await expectStatus(bob.api, `/posts/author/${'x'.repeat(151)}`, {}, 404, NOT_FOUND);
  });

  it("keeps listing a deactivated user's posts; their profile answers 200, the users list leaves them out, they cannot log in", async () => {
    const [author, reader] = await newUsers(2, 'leaving');
    const tag = await newTag();
    const w = word('gone');
    const posts = [];
    for (let i = 0; i < 3; i++) posts.push(await createPost(author!.api, { title: `Legacy ${i} ${w}`, description: 'x', tags: tag.title, publish: 'true' }));
    const draft = await createPost(author!.api, { title: `Unfinished ${w}`, description: 'x', tags: tag.title });
    await setFeatured(posts[1]!.slug, true);
    await view(reader!, posts[0]!);
    const path = `/posts/author/${author!.username}`;
    const before = Object.fromEntries(
      await Promise.all(['newest', 'featured', 'views', 'active'].map(async (sort) => [sort, (await get(reader!.api, path, { sort })).body] as const)),
    );
    const profileBefore = await reader!.api.get(`/users/detail/${author!.username}`);
    expect(profileBefore.body).toMatchObject({ total_posts: 3, total_featured_posts: 1 });

    await deactivateUser(author!.username);

    for (const [sort, body] of Object.entries(before)) expect((await get(reader!.api, path, { sort })).body, sort).toEqual(body);
    expect(slugs(before.newest!)).toEqual(slugs([...posts].reverse()));
    expect(slugs((await get(reader!.api, path, { page_size: '2' })).body)).toEqual(slugs([posts[2]!, posts[1]!]));
    expect(await all(reader!.api, path, { page_size: '2' })).toEqual(slugs([...posts].reverse()));
    // In the tag's list and in /posts too; the draft stays unseen.
    expect(await all(reader!.api, `/posts/tagged/${tag.slug}`)).toEqual(slugs([...posts].reverse()));
    expect(await all(reader!.api, '/posts', { q: w })).toEqual(slugs([...posts].reverse()));
    expect((await reader!.api.get(`/posts/detail/${draft.slug}`)).status).toBe(404);

    const profile = await reader!.api.get(`/users/detail/${author!.username}`);
    expect(profile.status).toBe(200);
    expect(Object.keys(profile.body)).toEqual(PROFILE_FIELDS);
    expect(profile.body).toEqual(profileBefore.body);
    const users = await walk(reader!.api, '/users', {}, 100, 'user');
    expect(users.posts.map((user) => user.user)).not.toContain(author!.username);
    expect(users.posts.map((user) => user.user)).toContain(reader!.username);
    const login = await api.client().post('/login', { json: { username: author!.username, password: author!.password } });
    expect(login.status).toBe(400);
    expect((await author!.api.get('/posts/me')).status).toBe(401);
  });
});

describe('GET /posts/me', () => {
  it("lists the caller's published posts and drafts together, and never another user's", async () => {
    const [owner, other] = await newUsers(2, 'self');
    const first = await createPost(owner!.api, { title: `First ${word()}`, description: 'x', publish: 'true' });
    const draft = await createPost(owner!.api, { title: `Draft ${word()}`, description: 'x' });
    await createPost(other!.api, { title: `Not mine ${word()}`, description: 'x', publish: 'true' });
    await createPost(other!.api, { title: `Not mine either ${word()}`, description: 'x' });
    const last = await createPost(owner!.api, { title: `Last ${word()}`, description: 'x', publish: 'true' });

    const mine = (await get(owner!.api, '/posts/me')).body;
    expect(mine).toEqual([last, draft, first]);
    for (const sort of ['newest', 'views', 'votes', 'active', 'bogus']) {
      const listed = (await get(owner!.api, '/posts/me', { sort })).body;
      expect(
        listed.every((post) => post.author === owner!.username),
        sort,
      ).toBe(true);
      expect(slugs(listed).sort(), sort).toEqual(slugs(mine).sort());
    }
    const theirs = (await get(other!.api, '/posts/me')).body;
    expect(theirs).toHaveLength(2);
    expect(theirs.every((post) => post.author === other!.username)).toBe(true);
    // Drafts count among the views of their author.
    expect((await view(owner!, draft)).status).toBe(200);
    expect((await get(owner!.api, '/posts/me', { sort: 'views' })).body[0]).toMatchObject({ slug: draft.slug, total_visitors: 1, publish: false });
  });

  it('publish=true keeps the published posts, publish=false the drafts, in every spelling of a boolean', async () => {
    const [owner] = await newUsers(1, 'filter');
    const published = [];
    const drafts = [];
    for (let i = 0; i < 3; i++) {
      published.push(await createPost(owner!.api, { title: `Out ${i} ${word()}`, description: 'x', publish: 'true' }));
      drafts.push(await createPost(owner!.api, { title: `In ${i} ${word()}`, description: 'x', publish: 'false' }));
    }
    const onlyPublished = slugs([...published].reverse());
    const onlyDrafts = slugs([...drafts].reverse());
    for (const yes of ['true', 'True', 'TRUE', 't', 'yes', 'y', 'on', '1']) {
      expect(slugs((await get(owner!.api, '/posts/me', { publish: yes })).body), yes).toEqual(onlyPublished);
    }
    for (const no of ['false', 'False', 'f', 'no', 'N', 'off', '0']) {
      expect(slugs((await get(owner!.api, '/posts/me', { publish: no })).body), no).toEqual(onlyDrafts);
    }
    // With every sort, q and paging; the filter rides along in the Link.
    for (const sort of ['newest', 'views', 'votes', 'active']) {
      expect(slugs((await get(owner!.api, '/posts/me', { publish: 'false', sort })).body).sort(), sort).toEqual([...onlyDrafts].sort());
    }
    const first = await get(owner!.api, '/posts/me', { publish: 'false', page_size: '2' });
    expect(new URL(nextLink(first)!).searchParams.get('publish')).toBe('false');
    expect(await all(owner!.api, '/posts/me', { publish: 'false', page_size: '2' })).toEqual(onlyDrafts);
    expect(await all(owner!.api, '/posts/me', { publish: 'true', page_size: '1' })).toEqual(onlyPublished);
    await expectStatus(owner!.api, '/posts/me', { publish: 'true', page: '2' }, 404, INVALID_PAGE);
    // Another spelling of the same filter is the same list.
    const cursor = new URL(nextLink(first)!).searchParams.get('cursor')!;
    const sameFilter = await get(owner!.api, '/posts/me', { publish: 'no', page_size: '2', page: '2', cursor });
    expect(slugs(sameFilter.body)).toEqual(onlyDrafts.slice(2));
    // A featured post is in the featured list of its author.
    await setFeatured(published[0]!.slug, true);
    expect(slugs((await get(owner!.api, '/posts/me', { sort: 'featured', publish: 'true' })).body)).toEqual([published[0]!.slug]);
    expect(slugs((await get(owner!.api, '/posts/me', { sort: 'featured', publish: 'false' })).body)).toEqual([]);
    // Only drafts of a user with none: [].
    const [fresh] = await newUsers(1, 'nodrafts');
    await createPost(fresh!.api, { title: `Public ${word()}`, description: 'x', publish: 'true' });
    expect((await get(fresh!.api, '/posts/me', { publish: 'false' })).body).toEqual([]);
  });

  // The publish filter is part of the list a cursor was issued for (docs/api.md, Paging).
  it('refuses a cursor of one publish filter on another with 404 Invalid page.', async () => {
    const [owner] = await newUsers(1, 'cursorfilter');
    for (let i = 0; i < 3; i++) await createPost(owner!.api, { title: `Draft ${i} ${word()}`, description: 'x', publish: 'false' });
    const first = await get(owner!.api, '/posts/me', { publish: 'false', page_size: '2' });
    const cursor = new URL(nextLink(first)!).searchParams.get('cursor')!;
    for (const query of [{ publish: 'true' }, {}] as Record<string, string>[]) {
      const response = await owner!.api.get('/posts/me', { query: { ...query, page_size: '2', page: '2', cursor } });
      expect({ query, status: response.status, body: response.body }).toEqual({ query, status: 404, body: INVALID_PAGE });
    }
  });

  it('answers 400 {"publish": ["Must be a valid boolean."]} to any other publish value', async () => {
    const [owner] = await newUsers(1, 'badfilter');
    await createPost(owner!.api, { title: `Some ${word()}`, description: 'x', publish: 'true' });
    for (const value of ['maybe', '2', 'truee', 'yes please', 'null']) {
      await expectStatus(owner!.api, '/posts/me', { publish: value }, 400, NOT_BOOLEAN);
    }
    await expectStatus(owner!.api, '/posts/me', { publish: 'maybe', sort: 'views', page: '1' }, 400, NOT_BOOLEAN);
    const form = await getWithBody(owner!.api, '/posts/me', 'publish=maybe', 'application/x-www-form-urlencoded');
    expect(form.status).toBe(400);
    expect(form.body).toEqual(NOT_BOOLEAN);
    const json = await getWithBody(owner!.api, '/posts/me', JSON.stringify({ publish: 'maybe' }), 'application/json');
    expect(json.status).toBe(400);
    expect(json.body).toEqual(NOT_BOOLEAN);
  });

  it('reads publish from a form or JSON body of the GET, as the other parameters', async () => {
    const [owner] = await newUsers(1, 'bodyfilter');
    const published = await createPost(owner!.api, { title: `Shown ${word()}`, description: 'x', publish: 'true' });
    const draft = await createPost(owner!.api, { title: `Hidden ${word()}`, description: 'x' });
    const form = await getWithBody(owner!.api, '/posts/me', 'publish=false', 'application/x-www-form-urlencoded');
    expect(form.status).toBe(200);
    expect(slugs(form.body)).toEqual([draft.slug]);
    const json = await getWithBody(owner!.api, '/posts/me', JSON.stringify({ publish: 'true' }), 'application/json');
    expect(json.status).toBe(200);
    expect(slugs(json.body)).toEqual([published.slug]);
    // The query string wins over the body.
    const both = await getWithBody(owner!.api, '/posts/me?publish=true', 'publish=false', 'application/x-www-form-urlencoded');
    expect(slugs(both.body)).toEqual([published.slug]);
  });

  it('takes a JSON boolean for publish in a JSON body, as the API takes booleans elsewhere', async () => {
    const [owner] = await newUsers(1, 'jsonbool');
    const published = await createPost(owner!.api, { title: `Shown ${word()}`, description: 'x', publish: 'true' });
    const draft = await createPost(owner!.api, { title: `Hidden ${word()}`, description: 'x' });
    const drafts = await getWithBody(owner!.api, '/posts/me', JSON.stringify({ publish: false }), 'application/json');
    expect(drafts.status).toBe(200);
    expect(slugs(drafts.body)).toEqual([draft.slug]);
    const shown = await getWithBody(owner!.api, '/posts/me', JSON.stringify({ publish: true }), 'application/json');
    expect(shown.status).toBe(200);
    expect(slugs(shown.body)).toEqual([published.slug]);
  });
});

describe('how writes move posts between the lists', () => {
  /** Every list a post of `author` with these tags could be in, as slugs. */
  async function lists(author: TestUser, tags: { slug: string }[]) {
    const entries = await Promise.all([
      all(bob.api, `/posts/author/${author.username}`),
      all(author.api, '/posts/me'),
      all(author.api, '/posts/me', { publish: 'true' }),
      all(author.api, '/posts/me', { publish: 'false' }),
      ...tags.map((tag) => all(bob.api, `/posts/tagged/${tag.slug}`)),
    ]);
    const [authored, mine, minePublished, mineDrafts, ...tagged] = entries;
    return { authored, mine, minePublished, mineDrafts, tagged };
  }

  it('a rename keeps the post in its lists under the new slug', async () => {
    const [author] = await newUsers(1, 'renamer');
    const tag = await newTag();
    const older = await createPost(author!.api, { title: `Older ${word()}`, description: 'x', tags: tag.title, publish: 'true' });
    const post = await createPost(author!.api, { title: `Before ${word()}`, description: 'x', tags: tag.title, publish: 'true' });
    const draft = await createPost(author!.api, { title: `Draft before ${word()}`, description: 'x', tags: tag.title });

    const renamed = await author!.api.put(`/posts/detail/${post.slug}`, { form: { title: `After ${word()}` } });
    expect(renamed.status).toBe(200);
    expect(renamed.body.slug).not.toBe(post.slug);
    const renamedDraft = await author!.api.put(`/posts/detail/${draft.slug}`, { json: { title: `Draft after ${word()}` } });
    expect(renamedDraft.status).toBe(200);

    const now = await lists(author!, [tag]);
    expect(now.authored).toEqual([renamed.body.slug, older.slug]);
    expect(now.tagged[0]).toEqual([renamed.body.slug, older.slug]);
    expect(now.mine).toEqual([renamedDraft.body.slug, renamed.body.slug, older.slug]);
    expect(now.mineDrafts).toEqual([renamedDraft.body.slug]);
    expect((await get(bob.api, `/posts/tagged/${tag.slug}`)).body[0]).toEqual(renamed.body);
    expect((await get(author!.api, '/posts/me')).body[0]).toEqual(renamedDraft.body);
    expect((await bob.api.get(`/posts/detail/${post.slug}`)).status).toBe(404);
  });

  it('unpublishing takes a post out of the tag and author lists and keeps it in /posts/me; publishing puts it back', async () => {
    const [author] = await newUsers(1, 'toggler');
    const tag = await newTag();
    const w = word('pub');
    const post = await createPost(author!.api, { title: `Toggled ${w}`, description: 'x', tags: tag.title, publish: 'true' });
    const stays = await createPost(author!.api, { title: `Stays ${word()}`, description: 'x', tags: tag.title, publish: 'true' });

    const hidden = await author!.api.put(`/posts/detail/${post.slug}`, { form: { publish: 'false' } });
    expect(hidden.status).toBe(200);
    let now = await lists(author!, [tag]);
    expect(now.authored).toEqual([stays.slug]);
    expect(now.tagged[0]).toEqual([stays.slug]);
    expect(now.mine).toEqual([stays.slug, post.slug]);
    expect(now.minePublished).toEqual([stays.slug]);
    expect(now.mineDrafts).toEqual([post.slug]);
    expect(await all(bob.api, '/posts', { q: w })).toEqual([]);
    expect((await get(author!.api, '/posts/me')).body[1]).toEqual(hidden.body);
    expect((await bob.api.get(`/tags/detail/${tag.slug}`)).body.total_posts).toBe(1);

    const shown = await author!.api.put(`/posts/detail/${post.slug}`, { form: { publish: 'true' } });
    expect(shown.status).toBe(200);
    now = await lists(author!, [tag]);
    expect(now.authored).toEqual([stays.slug, post.slug]);
    expect(now.tagged[0]).toEqual([stays.slug, post.slug]);
    expect(now.mineDrafts).toEqual([]);
    expect(await all(bob.api, '/posts', { q: w })).toEqual([post.slug]);
    expect((await bob.api.get(`/tags/detail/${tag.slug}`)).body.total_posts).toBe(2);
  });

  it('changing the tags moves a post from one tag list to another', async () => {
    const [author] = await newUsers(1, 'retagger');
    const [a, b, c] = await Promise.all([newTag(), newTag(), newTag()]);
    const post = await createPost(author!.api, { title: `Moving ${word()}`, description: 'x', tags: `${a.title}, ${b.title}`, publish: 'true' });
    const draft = await createPost(author!.api, { title: `Moving draft ${word()}`, description: 'x', tags: a.title });
    let now = await lists(author!, [a, b, c]);
    expect(now.tagged).toEqual([[post.slug], [post.slug], []]);

    const moved = await author!.api.put(`/posts/detail/${post.slug}`, { form: { tags: `${b.title}, ${c.title}` } });
    expect(moved.status).toBe(200);
    // A draft's tags change nothing in the tag lists.
    expect((await author!.api.put(`/posts/detail/${draft.slug}`, { form: { tags: `${b.title}, ${c.title}` } })).status).toBe(200);
    now = await lists(author!, [a, b, c]);
    expect(now.tagged).toEqual([[], [post.slug], [post.slug]]);
    expect((await get(bob.api, `/posts/tagged/${c.slug}`)).body).toEqual([moved.body]);

    expect((await author!.api.put(`/posts/detail/${post.slug}`, { form: { tags: '' } })).status).toBe(200);
    now = await lists(author!, [a, b, c]);
    expect(now.tagged).toEqual([[], [], []]);
    expect(now.authored).toEqual([post.slug]);
    // Publishing the draft puts it under its (new) tags.
    expect((await author!.api.put(`/posts/detail/${draft.slug}`, { form: { publish: 'true' } })).status).toBe(200);
    now = await lists(author!, [a, b, c]);
    expect(now.tagged).toEqual([[], [draft.slug], [draft.slug]]);
    for (const [tag, count] of [
      [a, 0],
      [b, 1],
      [c, 1],
    ] as const)
      expect((await bob.api.get(`/tags/detail/${tag.slug}`)).body.total_posts, tag.slug).toBe(count);
  });

  it('deleting a post removes it from every list', async () => {
    const [author] = await newUsers(1, 'deleter');
    const tag = await newTag();
    const w = word('del');
    const post = await createPost(author!.api, { title: `Doomed ${w}`, description: 'x', tags: tag.title, publish: 'true' });
    const draft = await createPost(author!.api, { title: `Doomed draft ${w}`, description: 'x', tags: tag.title });
    await setFeatured(post.slug, true);
    expect((await author!.api.delete(`/posts/detail/${post.slug}`)).status).toBe(204);
    expect((await author!.api.delete(`/posts/detail/${draft.slug}`)).status).toBe(204);
    const now = await lists(author!, [tag]);
    expect(now).toEqual({ authored: [], mine: [], minePublished: [], mineDrafts: [], tagged: [[]] });
    for (const sort of ['featured', 'views', 'votes', 'active']) {
      expect((await get(bob.api, `/posts/tagged/${tag.slug}`, { sort })).body, sort).toEqual([]);
      expect((await get(bob.api, `/posts/author/${author!.username}`, { sort })).body, sort).toEqual([]);
      expect((await get(author!.api, '/posts/me', { sort })).body, sort).toEqual([]);
    }
    expect(await all(bob.api, '/posts', { q: w })).toEqual([]);
    // The tag remains, with an empty list.
    expect((await bob.api.get(`/tags/detail/${tag.slug}`)).body.total_posts).toBe(0);
    // A new post that takes the freed slug starts afresh in the lists.
    const again = await createPost(author!.api, { title: `Doomed ${w}`, description: 'y', publish: 'true' });
    expect(again.slug).toBe(post.slug);
    expect((await get(bob.api, `/posts/author/${author!.username}`)).body).toEqual([again]);
    expect((await get(bob.api, `/posts/tagged/${tag.slug}`)).body).toEqual([]);
  });
});

describe('the post limits (docs/api.md, Resources: Post)', () => {
  it('takes a description of up to 100,000 characters and 300,000 bytes; beyond either, 400 on description', async () => {
    const w = word('long');
    // 100,000 characters in 300,000 bytes: 3-byte characters after the word.
    const longest = `${w} ${'日'.repeat(100_000 - w.length - 1)}`;
    const stored = await alice.api.post('/posts', { json: { title: `Longest ${w}`, description: longest, publish: true } });
    expect(Buffer.byteLength(longest, 'utf8')).toBeLessThanOrEqual(300_000);
    expect(stored.status, stored.text.slice(0, 300)).toBe(201);
    expect(stored.body.description).toBe(longest);

    const tooMany = await alice.api.post('/posts', { json: { title: `Too many ${w}`, description: 'a'.repeat(100_001), publish: true } });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body).toEqual({ description: ['Ensure this field has no more than 100000 characters.'] });
    // 75,001 characters, one byte over 300,000.
    const tooHeavy = await alice.api.post('/posts', { json: { title: `Too heavy ${w}`, description: `${'😀'.repeat(75_000)}a`, publish: true } });
    expect(tooHeavy.status).toBe(400);
    expect(Object.keys(tooHeavy.body)).toEqual(['description']);
    const update = await alice.api.put(`/posts/detail/${stored.body.slug}`, { json: { description: `${'😀'.repeat(75_000)}a` } });
    expect(update.status).toBe(400);
    expect(Object.keys(update.body)).toEqual(['description']);
    expect(await all(bob.api, '/posts', { q: w })).toEqual([stored.body.slug]);
  });

  it('takes meta_description up to 1,000 characters and keywords up to 500', async () => {
    const w = word('meta');
    const post = await createPost(alice.api, {
      title: `Meta ${w}`,
      description: 'x',
      meta_description: 'm'.repeat(1_000),
      keywords: 'k'.repeat(500),
      publish: 'true',
    });
    expect(post.meta_description).toHaveLength(1_000);
    expect(post.keywords).toHaveLength(500);
    const over = await alice.api.post('/posts', {
      form: { title: `Over ${w}`, description: 'x', meta_description: 'm'.repeat(1_001), keywords: 'k'.repeat(501) },
    });
    expect(over.status).toBe(400);
    expect(over.body).toEqual({
      keywords: ['Ensure this field has no more than 500 characters.'],
      meta_description: ['Ensure this field has no more than 1000 characters.'],
    });
    const update = await alice.api.put(`/posts/detail/${post.slug}`, { form: { meta_description: 'm'.repeat(1_001) } });
    expect(update.status).toBe(400);
    expect(update.body).toEqual({ meta_description: ['Ensure this field has no more than 1000 characters.'] });
  });

  it('takes at most 20 tags per post: 21 is a 400 on tags, on create and on update', async () => {
    const w = word('many');
    const titles = Array.from({ length: 21 }, (_, i) => `T${i} ${w}`);
    const twenty = await createPost(alice.api, { title: `Twenty ${w}`, description: 'x', tags: titles.slice(0, 20).join(', '), publish: 'true' });
    expect(twenty.tags).toEqual(titles.slice(0, 20));
    const message = { tags: ['Ensure this field has no more than 20 elements.'] };
    const created = await alice.api.post('/posts', { form: { title: `Too many ${w}`, description: 'x', tags: titles.join(', ') } });
    expect(created.status).toBe(400);
    expect(created.body).toEqual(message);
    const asArray = await alice.api.post('/posts', { json: { title: `Too many ${w}`, description: 'x', tags: titles } });
    expect(asArray.status).toBe(400);
    expect(asArray.body).toEqual(message);
    const updated = await alice.api.put(`/posts/detail/${twenty.slug}`, { form: { tags: titles.join(', ') } });
    expect(updated.status).toBe(400);
    expect(updated.body).toEqual(message);
    // Nothing of the refused requests was stored: the 21st tag does not exist.
    expect((await alice.api.get('/tags', { query: { q: titles[20]! } })).body).toEqual([]);
    expect((await alice.api.get(`/posts/detail/${twenty.slug}`)).body.tags).toEqual(titles.slice(0, 20));
  });

  it('cuts a page of large posts to what a Lambda response may hold, in each new list; Link still gives every post once', { timeout: 300_000 }, async () => {
    const [author] = await newUsers(1, 'heavy');
    const tag = await newTag();
    // 22 posts of 300,000 bytes each: more than 6 MB in one page of 100.
    const created: Post[] = [];
    for (let i = 0; i < 22; i += 6) {
      created.push(
        ...(
          await Promise.all(
            Array.from({ length: Math.min(6, 22 - i) }, (_, j) =>
              author!.api.post('/posts', { json: { title: `Heavy ${i + j} ${word()}`, description: '語'.repeat(100_000), tags: [tag.title], publish: true } }),
            ),
          )
        ).map((response) => {
          expect(response.status, response.text.slice(0, 200)).toBe(201);
          return response.body as Post;
        }),
      );
    }
    for (const [reader, path] of [
      [bob, `/posts/tagged/${tag.slug}`],
      [bob, `/posts/author/${author!.username}`],
      [author!, '/posts/me'],
    ] as const) {
      const { pages, posts, responses } = await walk(reader.api, path);
      expect(pages.length, path).toBeGreaterThan(1);
      expect(pages[0]!.length, path).toBeLessThan(22);
      expectNewestFirst(posts, created, path);
      for (const response of responses) expect(Buffer.byteLength(JSON.stringify(response.text), 'utf8'), path).toBeLessThan(LAMBDA_RESPONSE_LIMIT);
    }
  });
});
