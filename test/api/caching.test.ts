import { describe, expect, it } from 'vitest';
import { createPost, unique, type ApiResponse } from '../support/api.ts';
import { useApi } from '../support/fixture.ts';

// Caching, conditional requests and edit conflicts (docs/api.md, "Caching and conditional
// requests" and "Edit conflicts"): an ETag on every GET of content and 304 for a matching
// If-None-Match, Cache-Control and Vary, the CORS headers a page needs to revalidate, links on the
// host the request reached, and PUT /posts/detail/{slug} with `modified`.

const api = useApi({ users: ['alice', 'bob'] });
const { alice, bob } = api.users;

const CONFLICT = { detail: 'The post was changed since you read it.' };
const ORIGIN = 'https://app.example';

/** Every GET of content, for alice's post, its tag and alice. */
async function contentPaths() {
  const tagTitle = unique('Cache');
  const post = await createPost(alice.api, { title: unique('Cached '), description: 'x', tags: tagTitle, publish: 'true' });
  const tag = (await alice.api.get('/tags', { query: { q: tagTitle } })).body[0].slug as string;
  const thread = (await bob.api.post(`/posts/detail/${post.slug}/comments`, { json: { body: 'First!' } })).body.id as string;
  expect((await alice.api.post(`/posts/detail/${post.slug}/comments`, { json: { body: 'Reply', parent: thread } })).status).toBe(201);
  return [
    `/posts/detail/${post.slug}/comments`,
    `/comments/detail/${thread}`,
    `/comments/detail/${thread}/replies`,
    `/users/detail/${bob.username}/comments`,
    '/posts',
    `/posts/detail/${post.slug}`,
    `/posts/tagged/${tag}`,
    `/posts/author/${alice.username}`,
    '/posts/me',
    '/tags',
    `/tags/detail/${tag}`,
    '/users',
    `/users/detail/${alice.username}`,
    `/users/detail/${alice.username}/favorites`,
  ];
}

/** The headers of an answer but those a 304 leaves out and those that change on every answer. */
function comparableHeaders(response: ApiResponse): Record<string, string> {
  const skip = new Set(['content-type', 'content-length', 'date', 'apigw-requestid', 'connection', 'keep-alive']);
  return Object.fromEntries([...response.headers].filter(([name]) => !skip.has(name)));
}

describe('ETag and If-None-Match', () => {
  it('answers every GET of content with a strong ETag of its body; HEAD with the same', async () => {
    for (const path of await contentPaths()) {
      const got = await alice.api.get(path);
      expect(got.status, path).toBe(200);
      expect(got.headers.get('etag'), path).toMatch(/^"[^"]+"$/);
      const again = await alice.api.get(path);
      expect(again.headers.get('etag'), path).toBe(got.headers.get('etag'));
      expect((await alice.api.request('HEAD', path)).headers.get('etag'), path).toBe(got.headers.get('etag'));
    }
  });

  it('answers a matching If-None-Match 304 without a body, with the ETag and the headers of the 200 but Content-Type and Content-Length', async () => {
    for (const path of await contentPaths()) {
      const got = await alice.api.get(path, { headers: { Origin: ORIGIN }, query: { page_size: '1' } });
      const etag = got.headers.get('etag')!;
      for (const method of ['GET', 'HEAD']) {
        const cached = await alice.api.request(method, path, { headers: { Origin: ORIGIN, 'If-None-Match': etag }, query: { page_size: '1' } });
        expect([cached.status, cached.text], `${method} ${path}`).toEqual([304, '']);
        expect(cached.headers.get('content-type'), path).toBeNull();
        expect(cached.headers.get('content-length'), path).toBeNull();
        expect(comparableHeaders(cached), path).toEqual(comparableHeaders(got));
      }
    }
  });

  it('compares weakly, takes lists and *, and answers 200 to a tag that does not match', async () => {
    const path = '/users';
    const etag = (await alice.api.get(path)).headers.get('etag')!;
    for (const value of [etag, `W/${etag}`, `"other", ${etag}`, `W/"other",W/${etag}`, '*', ` ${etag} `]) {
      expect((await alice.api.get(path, { headers: { 'If-None-Match': value } })).status, value).toBe(304);
    }
    for (const value of ['"other"', etag.slice(1, -1), `W/"x"`, '']) {
      const got = await alice.api.get(path, { headers: { 'If-None-Match': value } });
      expect([got.status, got.headers.get('etag')], value).toEqual([200, etag]);
    }
  });

  it('changes the ETag when the body changes', async () => {
    const post = await createPost(alice.api, { title: unique('Changing '), description: 'one', publish: 'true' });
    const path = `/posts/detail/${post.slug}`;
    const etag = (await alice.api.get(path)).headers.get('etag')!;
    expect((await alice.api.put(path, { form: { description: 'two' } })).status).toBe(200);
    const got = await alice.api.get(path, { headers: { 'If-None-Match': etag } });
    expect([got.status, got.body.description]).toEqual([200, 'two']);
    expect(got.headers.get('etag')).not.toBe(etag);
  });

  it("changes a post's ETag with total_comments and comments_locked, never with a comment's body", async () => {
    const post = await createPost(alice.api, { title: unique('Commented '), description: 'x', publish: 'true' });
    const path = `/posts/detail/${post.slug}`;
    await alice.api.get(path);
    const etag = (await alice.api.get(path)).headers.get('etag')!;
    const made = await bob.api.post(`${path}/comments`, { json: { body: 'Hello' } });
    const counted = await alice.api.get(path, { headers: { 'If-None-Match': etag } });
    expect([counted.status, counted.body.total_comments]).toEqual([200, 1]);
    const afterComment = counted.headers.get('etag')!;
    expect((await bob.api.put(`/comments/detail/${made.body.id}`, { json: { body: 'Hello again' } })).status).toBe(200);
    expect((await alice.api.get(path, { headers: { 'If-None-Match': afterComment } })).status).toBe(304);
    expect((await alice.api.put(path, { json: { comments_locked: true } })).status).toBe(200);
    const locked = await alice.api.get(path, { headers: { 'If-None-Match': afterComment } });
    expect([locked.status, locked.body.comments_locked]).toEqual([200, true]);
  });

  it("records a post's first visit before comparing: the first visit answers 200 with the new count, then 304", async () => {
    const post = await createPost(alice.api, { title: unique('Visited '), description: 'x', publish: 'true' });
    const path = `/posts/detail/${post.slug}`;
    // HEAD records no visit: its ETag is of the post before bob's first visit.
    const head = await bob.api.request('HEAD', path);
    const first = await bob.api.get(path, { headers: { 'If-None-Match': head.headers.get('etag')! } });
    expect([first.status, first.body.total_visitors]).toEqual([200, 1]);
    const second = await bob.api.get(path, { headers: { 'If-None-Match': first.headers.get('etag')! } });
    expect(second.status).toBe(304);
    expect((await alice.api.get(path)).body.total_visitors).toBe(2);
  });

  it('sends no ETag on answers that are not content: the token check, a vote, an error', async () => {
    const post = await createPost(alice.api, { title: unique('Plain '), description: 'x', publish: 'true' });
    for (const path of ['/auth', `/posts/detail/${post.slug}/vote`, `/posts/detail/${post.slug}/favorite`, '/posts/detail/no-such-post']) {
      const got = await bob.api.get(path, { headers: { 'If-None-Match': '*' } });
      expect(got.status, path).not.toBe(304);
      expect(got.headers.get('etag'), path).toBeNull();
    }
  });
});

describe('Cache-Control and Vary', () => {
  it('marks every answer to a token private, no-cache, and each cacheable one Vary: Authorization, Origin', async () => {
    for (const path of await contentPaths()) {
      const got = await alice.api.get(path);
      expect([got.headers.get('cache-control'), got.headers.get('vary')], path).toEqual(['private, no-cache', 'Authorization, Origin']);
    }
    const created = await alice.api.post('/posts', { form: { title: unique('Private '), description: 'x' } });
    expect([created.status, created.headers.get('cache-control')]).toEqual([201, 'private, no-cache']);
    expect((await alice.api.get('/auth')).headers.get('cache-control')).toBe('private, no-cache');
  });

  it('marks error answers no-store, with a token or without', async () => {
    const answers = [
      await alice.api.get('/posts/detail/no-such-post'),
      await alice.api.get('/posts', { query: { page: '0' } }),
      await alice.api.post('/posts', { form: { title: '' } }),
      await api.client().get('/posts'),
      await api.client(`${'f'.repeat(40)}`).get('/users'),
      await api.client().get('/no/such/path'),
      await bob.api.put(`/users/detail/${alice.username}`, { form: { location: 'x' } }),
    ];
    for (const answer of answers) {
      expect(answer.status).toBeGreaterThanOrEqual(400);
      expect(answer.headers.get('cache-control'), answer.text).toBe('no-store');
    }
  });
});

describe('CORS', () => {
  it('exposes ETag and X-Total-Count beside Link to pages on other origins, and allows If-None-Match', async () => {
    const got = await alice.api.get('/posts', { headers: { Origin: ORIGIN } });
    const exposed = (got.headers.get('access-control-expose-headers') ?? '').toLowerCase().split(/,\s*/);
    expect(exposed).toEqual(expect.arrayContaining(['link', 'etag', 'x-total-count']));
    const preflight = await api.client().request('OPTIONS', '/posts', {
      headers: { Origin: ORIGIN, 'Access-Control-Request-Method': 'GET', 'Access-Control-Request-Headers': 'authorization, if-none-match' },
    });
    expect(preflight.status).toBe(204);
    expect((preflight.headers.get('access-control-allow-headers') ?? '').toLowerCase()).toContain('if-none-match');
  });
});

describe('links name the host the request reached', () => {
  it("never a client's X-Forwarded-Host or Host: Link, the feed and the OpenAPI servers", async () => {
    for (let i = 0; i < 2; i++) await createPost(alice.api, { title: unique('Linked '), description: 'x', publish: 'true' });
    const spoofed = { 'X-Forwarded-Host': 'evil.example', 'X-Forwarded-Proto': 'http' };
    const page = await alice.api.get('/posts', { query: { page_size: '1' }, headers: spoofed });
    const link = page.headers.get('link')!;
    expect(link).toMatch(new RegExp(`^<${api.url.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/posts\\?`));
    expect(link).not.toContain('evil.example');
    const feed = await api.client().get('/feed', { headers: spoofed });
    expect(feed.text).toContain(`${api.url}/posts/detail/`);
    expect(feed.text).not.toContain('evil.example');
    const document = await api.client().get('/openapi.json', { headers: { ...spoofed, Host: 'evil.example' } });
    expect(document.body.servers[0].url).toBe(api.url);
  });
});

describe('edit conflicts: PUT /posts/detail/{slug} with modified', () => {
  const newPost = () => createPost(alice.api, { title: unique('Edited '), description: 'first', publish: 'true' });

  it('applies an edit whose modified is the current one, and refuses one whose modified is stale with 409, changing nothing', async () => {
    const post = await newPost();
    const path = `/posts/detail/${post.slug}`;
    const edited = await alice.api.put(path, { json: { description: 'second', modified: post.modified } });
    expect(edited.status, edited.text).toBe(200);
    expect(edited.body.modified).not.toBe(post.modified);
    for (const body of [
      { description: 'third', modified: post.modified },
      { title: 'Renamed entirely', modified: post.modified },
    ]) {
      const stale = await alice.api.put(path, { json: body });
      expect([stale.status, stale.body]).toEqual([409, CONFLICT]);
      expect(stale.headers.get('cache-control')).toBe('no-store');
    }
    const form = await alice.api.put(path, { form: { description: 'third', modified: post.modified } });
    expect([form.status, form.body]).toEqual([409, CONFLICT]);
    // Alice's read counts her first visit; nothing else changed.
    expect((await alice.api.get(path)).body).toEqual({ ...edited.body, total_visitors: 1 });
    // Without modified: as v1.
    expect((await alice.api.put(path, { form: { description: 'fourth' } })).status).toBe(200);
  });

  it('is not caused by visits, votes or favorites, which leave modified alone', async () => {
    const post = await newPost();
    const path = `/posts/detail/${post.slug}`;
    expect((await bob.api.get(path)).body.modified).toBe(post.modified);
    expect((await bob.api.post(`${path}/vote`, { form: { vote: 'up' } })).status).toBe(200);
    expect((await bob.api.post(`${path}/favorite`)).status).toBe(200);
    const edited = await alice.api.put(path, { form: { description: 'after the reactions', modified: post.modified } });
    expect(edited.status, edited.text).toBe(200);
    expect(edited.body).toMatchObject({ description: 'after the reactions', total_visitors: 1, rating_likes: 1, total_favorites: 1 });
  });

  it('comes after the 401, 403 and 404 checks and before field validation', async () => {
    const post = await newPost();
    const path = `/posts/detail/${post.slug}`;
    const stale = '2000-01-01T00:00:00.000000+00:00';
    expect((await api.client().put(path, { form: { modified: stale } })).status).toBe(401);
    expect((await bob.api.put(path, { form: { modified: stale } })).status).toBe(403);
    expect((await alice.api.put('/posts/detail/no-such-post', { form: { modified: stale } })).status).toBe(404);
    expect([(await alice.api.put(path, { form: { title: '', modified: stale } })).status]).toEqual([409]);
    const invalid = await alice.api.put(path, { form: { title: '', modified: post.modified } });
    expect([invalid.status, invalid.body]).toEqual([400, { title: ['This field may not be blank.'] }]);
  });

  it('lets one of two editors of the same version win: the other gets 409', async () => {
    for (let round = 0; round < 3; round++) {
      const post = await newPost();
      const path = `/posts/detail/${post.slug}`;
      const answers = await Promise.all(
        ['from tab one', 'from tab two', 'from another device'].map((description) => alice.api.put(path, { json: { description, modified: post.modified } })),
      );
      const statuses = answers.map((answer) => answer.status).sort();
      expect(statuses).toEqual([200, 409, 409]);
      const winner = answers.find((answer) => answer.status === 200)!;
      expect((await alice.api.get(path)).body.description).toBe(winner.body.description);
      for (const loser of answers.filter((answer) => answer.status === 409)) expect(loser.body).toEqual(CONFLICT);
    }
  });
});
