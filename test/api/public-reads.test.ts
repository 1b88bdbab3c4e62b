import { describe, expect, it } from 'vitest';
import { createPost, unique, type ApiClient, type ApiResponse, type TestUser } from '../support/api.ts';
import { useApi } from '../support/fixture.ts';

// Reading without an account (docs/api.md, "Reading without an account"): with PUBLIC_READS=true
// the reads of published content answer a request without an Authorization header as they answer
// a caller who owns nothing; a header is always checked; every other route keeps its 401. With the
// setting off (the default) every route answers 401 without a token. Each describe block starts an
// API of its own with its settings.

const NOT_PROVIDED = { detail: 'Authentication credentials were not provided.' };
const INVALID = { detail: 'Invalid token.' };

interface World {
  alice: TestUser;
  bob: TestUser;
  published: { slug: string };
  draft: { slug: string };
  tag: string;
  /** bob's thread on the published post, with alice's reply (v1.3). */
  thread: string;
}

/** alice's published post (tagged) and draft, both among her favorites. */
async function world(api: { users: { alice: TestUser; bob: TestUser } }): Promise<World> {
  const { alice, bob } = api.users;
  const tagTitle = unique('Tag');
  const published = await createPost(alice.api, { title: unique('Public '), description: 'Hello *world*', tags: tagTitle, publish: 'true' });
  const draft = await createPost(alice.api, { title: unique('Draft '), description: 'secret', tags: tagTitle });
  for (const post of [published, draft]) expect((await alice.api.post(`/posts/detail/${post.slug}/favorite`)).status).toBe(200);
  const tag = (await alice.api.get('/tags', { query: { q: tagTitle } })).body[0].slug as string;
  const thread = await bob.api.post(`/posts/detail/${published.slug}/comments`, { json: { body: 'A *question*' } });
  expect(thread.status).toBe(201);
  expect((await alice.api.post(`/posts/detail/${published.slug}/comments`, { json: { body: 'An answer', parent: thread.body.id } })).status).toBe(201);
  return { alice, bob, published, draft, tag, thread: thread.body.id as string };
}

/** The routes of public reads, for this world's post, tag and user. */
const publicPaths = (w: World) => [
  '/posts',
  `/posts/detail/${w.published.slug}`,
  `/posts/detail/${w.published.slug}/related`,
  `/posts/tagged/${w.tag}`,
  `/posts/author/${w.alice.username}`,
  '/tags',
  `/tags/detail/${w.tag}`,
  '/users',
  `/users/detail/${w.alice.username}`,
  `/users/detail/${w.alice.username}/favorites`,
  `/posts/detail/${w.published.slug}/comments`,
  `/comments/detail/${w.thread}`,
  `/comments/detail/${w.thread}/replies`,
  `/users/detail/${w.bob.username}/comments`,
];

/** Routes that need a token whatever the setting, with their method. */
const tokenOnly = (w: World): [string, string][] => [
  ['GET', '/auth'],
  ['GET', '/logout'],
  ['GET', '/posts/me'],
  ['GET', `/posts/detail/${w.published.slug}/vote`],
  ['POST', `/posts/detail/${w.published.slug}/vote`],
  ['GET', `/posts/detail/${w.published.slug}/favorite`],
  ['POST', `/posts/detail/${w.published.slug}/favorite`],
  ['POST', '/posts'],
  ['PUT', `/posts/detail/${w.published.slug}`],
  ['DELETE', `/posts/detail/${w.published.slug}`],
  ['POST', '/tags'],
  ['PUT', `/users/detail/${w.alice.username}`],
  ['POST', `/users/detail/${w.alice.username}/password`],
  ['POST', `/posts/detail/${w.published.slug}/comments`],
  ['PUT', `/comments/detail/${w.thread}`],
  ['DELETE', `/comments/detail/${w.thread}`],
  ['GET', `/comments/detail/${w.thread}/report`],
  ['POST', `/comments/detail/${w.thread}/report`],
  ['GET', `/posts/detail/${w.published.slug}/report`],
  ['GET', '/reports'],
  ['GET', `/users/detail/${w.bob.username}/suspension`],
];

const expect401 = (response: ApiResponse, body: object, label: string) => {
  expect([response.status, response.body], label).toEqual([401, body]);
  expect(response.headers.get('www-authenticate'), label).toBe('Token');
  expect(response.headers.get('cache-control'), label).toBe('no-store');
};

/** Requests that send an Authorization header of their own, whatever it holds. */
const withHeader = (client: ApiClient, value: string) => ({
  get: (path: string) => client.get(path, { headers: { Authorization: value } }),
  head: (path: string) => client.request('HEAD', path, { headers: { Authorization: value } }),
});

describe('public reads on (PUBLIC_READS=true)', () => {
  const api = useApi({ users: ['alice', 'bob'], apiEnvironment: { PUBLIC_READS: 'true' } });
  let w: World;
  const anonymous = () => api.client();

  it('answers every route of public reads without a token, GET and HEAD, as it answers a caller who owns nothing', async () => {
    w = await world(api);
    for (const path of publicPaths(w)) {
      const before = await w.bob.api.get(path);
      const got = await anonymous().get(path);
      expect(got.status, path).toBe(200);
      // A post detail: bob's first visit was counted before, and the anonymous read counts none.
      expect(got.body, path).toEqual(before.body);
      const head = await anonymous().request('HEAD', path);
      expect([head.status, head.text], path).toEqual([200, '']);
      expect(head.headers.get('etag'), path).toBe(got.headers.get('etag'));
    }
  });

  it('shows an anonymous reader published posts only: a draft is 404 and no list holds it', async () => {
    const detail = await anonymous().get(`/posts/detail/${w.draft.slug}`);
    expect([detail.status, detail.body]).toEqual([404, { detail: 'Not found.' }]);
    expect(detail.headers.get('cache-control')).toBe('no-store');
    expect((await anonymous().request('HEAD', `/posts/detail/${w.draft.slug}`)).status).toBe(404);
    // The author sees her draft among her favorites; nobody else does.
    const mine = (await w.alice.api.get(`/users/detail/${w.alice.username}/favorites`)).body.map((post: { slug: string }) => post.slug);
    expect(mine).toEqual(expect.arrayContaining([w.published.slug, w.draft.slug]));
    for (const path of [`/users/detail/${w.alice.username}/favorites`, `/posts/tagged/${w.tag}`, `/posts/author/${w.alice.username}`, '/posts']) {
      const slugs = (await anonymous().get(path)).body.map((post: { slug: string }) => post.slug);
      expect(slugs, path).toContain(w.published.slug);
      expect(slugs, path).not.toContain(w.draft.slug);
    }
  });

  it("shows an anonymous reader comments as to everyone else: a hidden one is a placeholder; a draft's are 404", async () => {
    const hidden = await w.bob.api.post(`/posts/detail/${w.published.slug}/comments`, { json: { body: 'Off topic' } });
    expect((await w.alice.api.put(`/comments/detail/${hidden.body.id}`, { json: { status: 'hidden' } })).status).toBe(200);
    const shown = await anonymous().get(`/comments/detail/${hidden.body.id}`);
    expect(shown.body).toMatchObject({ status: 'hidden', hidden_by: 'post_author', author: null, body: '' });
    expect(shown.headers.get('cache-control')).toMatch(/^public/);
    const listed = (await anonymous().get(`/posts/detail/${w.published.slug}/comments`)).body as { id: string; body: string }[];
    expect(listed.find((comment) => comment.id === hidden.body.id)?.body).toBe('');
    expect((await anonymous().get(`/users/detail/${w.bob.username}/comments`)).body.map((c: { id: string }) => c.id)).not.toContain(hidden.body.id);
    expect((await anonymous().get(`/posts/detail/${w.draft.slug}/comments`)).status).toBe(404);
  });

  it('counts no visit for an anonymous read; a logged-in first visit still counts once', async () => {
    const post = await createPost(w.alice.api, { title: unique('Visits '), description: 'x', publish: 'true' });
    const path = `/posts/detail/${post.slug}`;
    for (let i = 0; i < 3; i++) expect((await anonymous().get(path)).body.total_visitors).toBe(0);
    expect((await w.bob.api.get(path)).body.total_visitors).toBe(1);
    expect((await anonymous().get(path)).body.total_visitors).toBe(1);
    expect((await w.bob.api.get(path)).body.total_visitors).toBe(1);
  });

  it('authenticates a request that sends an Authorization header, whatever it holds: never read as anonymous', async () => {
    for (const path of publicPaths(w)) {
      for (const malformed of ['Bearer x', '', 'Token', 'Token a b', 'Basic YWxpY2U6cHc=']) {
        expect401(await withHeader(anonymous(), malformed).get(path), NOT_PROVIDED, `${path} ${JSON.stringify(malformed)}`);
      }
      for (const bad of ['Token abc', `Token ${'f'.repeat(40)}`, `token ${'0'.repeat(40)}`]) {
        expect401(await withHeader(anonymous(), bad).get(path), INVALID, `${path} ${bad}`);
      }
      const head = await withHeader(anonymous(), `Token ${'f'.repeat(40)}`).head(path);
      expect(head.status, path).toBe(401);
    }
  });

  it('answers a revoked token 401 on a public read, not as anonymous', async () => {
    const carol = await api.user('carol');
    expect((await carol.api.get('/logout')).status).toBe(200);
    expect401(await carol.api.get('/posts'), INVALID, 'revoked');
  });

  it('keeps the 401 of every other route without a token', async () => {
    for (const [method, path] of tokenOnly(w)) {
      const response = await anonymous().request(method, path, method === 'GET' ? {} : { form: { title: 'x', description: 'y', vote: 'up' } });
      expect(response.status, `${method} ${path}`).toBe(401);
      expect(response.body, `${method} ${path}`).toEqual(path === '/logout' ? { detail: 'You are not logged in!' } : NOT_PROVIDED);
    }
  });

  it("marks anonymous reads public for shared caches (s-maxage 10 by default), a token's answers private", async () => {
    for (const path of publicPaths(w)) {
      const got = await anonymous().get(path);
      expect(got.headers.get('cache-control'), path).toBe('public, max-age=0, s-maxage=10');
      expect(got.headers.get('vary'), path).toBe('Authorization, Origin');
      const own = await w.bob.api.get(path);
      expect(own.headers.get('cache-control'), path).toBe('private, no-cache');
      expect(own.headers.get('vary'), path).toBe('Authorization, Origin');
    }
  });

  it('answers a 304 to an anonymous reader whose copy is current, with the public Cache-Control', async () => {
    const path = `/posts/detail/${w.published.slug}`;
    const first = await anonymous().get(path);
    const again = await anonymous().get(path, { headers: { 'If-None-Match': first.headers.get('etag')! } });
    expect([again.status, again.text]).toEqual([304, '']);
    expect(again.headers.get('etag')).toBe(first.headers.get('etag'));
    expect(again.headers.get('cache-control')).toBe('public, max-age=0, s-maxage=10');
  });
});

describe('public reads off (the default)', () => {
  const api = useApi({ users: ['alice', 'bob'] });

  it('answers every route 401 without a token, as v1', async () => {
    const w = await world(api);
    for (const path of publicPaths(w)) {
      expect401(await api.client().get(path), NOT_PROVIDED, path);
      const head = await api.client().request('HEAD', path);
      expect([head.status, head.headers.get('cache-control')], path).toEqual([401, 'no-store']);
      expect((await w.bob.api.get(path)).status, path).toBe(200);
    }
    for (const [method, path] of tokenOnly(w)) expect((await api.client().request(method, path)).status, `${method} ${path}`).toBe(401);
  });
});

describe('public reads with publicCacheSeconds', () => {
  describe('0', () => {
    const api = useApi({ users: ['alice', 'bob'], apiEnvironment: { PUBLIC_READS: 'true', PUBLIC_CACHE_SECONDS: '0' } });

    it('marks anonymous reads public, no-cache', async () => {
      const w = await world(api);
      for (const path of publicPaths(w)) expect((await api.client().get(path)).headers.get('cache-control'), path).toBe('public, no-cache');
      expect((await w.bob.api.get('/posts')).headers.get('cache-control')).toBe('private, no-cache');
    });
  });

  describe('300', () => {
    const api = useApi({ users: ['alice', 'bob'], apiEnvironment: { PUBLIC_READS: 'TRUE', PUBLIC_CACHE_SECONDS: '300' } });

    it('marks anonymous reads public with that s-maxage', async () => {
      const w = await world(api);
      expect((await api.client().get(`/posts/detail/${w.published.slug}`)).headers.get('cache-control')).toBe('public, max-age=0, s-maxage=300');
      expect((await api.client().get('/posts')).headers.get('cache-control')).toBe('public, max-age=0, s-maxage=300');
    });
  });
});
