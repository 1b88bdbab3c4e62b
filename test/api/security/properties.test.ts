import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { db } from '#lib/db/client.ts';
import { keys } from '#lib/db/keys.ts';
import { ROUTES } from '#lib/routes.ts';
import { unique } from '../../support/api.ts';
import { POST_FIELDS, PROFILE_FIELDS, TAG_FIELDS } from '../../support/contract.ts';
import { useApi } from '../../support/fixture.ts';
import { invariantProblems, settledTable } from '../reliability/table.ts';

// Object property level authorization (OWASP API3) and function level authorization (API5):
// every read-only field in every write body is ignored, in JSON and in forms, including the
// storage attributes a client could guess (keys, index keys, version, ids) and prototype keys;
// responses carry exactly the contract's fields; no route exposes an administrator's action.

const api = useApi({ users: { alice: 'ma_alice', bob: 'ma_bob' } });
const { alice, bob } = api.users;
const w = unique('ma').toLowerCase();

/** Storage attributes and keys a client might try to set. */
const STORAGE = {
  PK: 'POST#evil',
  SK: 'EVIL',
  GSI1PK: 'FEATURED',
  GSI1SK: '9999',
  FeaturedPK: 'FEATURED',
  ViewsSK: '999999999999#x',
  VotesSK: '999999999999#x',
  ActiveSK: '9999',
  version: 999,
  id: 'chosen-id',
  search: 'injected search text',
  expires_at: 1,
  is_active: false,
};
const POST_READ_ONLY = {
  author: 'someone-else',
  author_id: 1,
  slug: `chosen-${w}`,
  slug_base: `chosen-${w}`,
  created: '2000-01-01T00:00:00.000000+00:00',
  modified: '2000-01-01T00:00:00.000000+00:00',
  is_featured: true,
  rating_likes: 99,
  rating_dislikes: 98,
  total_visitors: 97,
  total_favorites: 96,
  tag_slugs: ['evil'],
};

const asForm = (fields: Record<string, unknown>) => Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, Array.isArray(v) ? v.join(',') : String(v)]));

/** The post's text and stats items as stored, merged. */
async function storedPost(slug: string) {
  const get = async (key: { PK: string; SK: string }) => (await db().send(new GetCommand({ TableName: api.table, Key: key, ConsistentRead: true }))).Item!;
  return { ...(await get(keys.postStats(slug))), ...(await get(keys.post(slug))) };
}

function expectNoPollution(): void {
  expect(({} as Record<string, unknown>).publish, 'Object.prototype polluted').toBeUndefined();
  expect(({} as Record<string, unknown>).is_featured, 'Object.prototype polluted').toBeUndefined();
  expect(({} as Record<string, unknown>).isAdmin, 'Object.prototype polluted').toBeUndefined();
}

describe('mass assignment: read-only fields in write bodies are ignored', () => {
  it.each(['json', 'form'] as const)('POST /posts (%s)', async (encoding) => {
    const fields = {
      ...STORAGE,
      ...POST_READ_ONLY,
      author: bob.username,
      title: `Mass ${encoding} ${w}`,
      description: 'd',
      tags: `Mass ${w}`,
      publish: 'true',
    };
    const response = encoding === 'json' ? await alice.api.post('/posts', { json: fields }) : await alice.api.post('/posts', { form: asForm(fields) });
    expect(response.status, response.text).toBe(201);
    expect(Object.keys(response.body)).toEqual(POST_FIELDS);
    expect(response.body).toMatchObject({
      author: alice.username,
      slug: `mass-${encoding}-${w}`,
      is_featured: false,
      rating_likes: 0,
      rating_dislikes: 0,
      total_visitors: 0,
      total_favorites: 0,
      tags: [`Mass ${w}`],
    });
    expect(response.body.created).not.toBe(POST_READ_ONLY.created);
    const item = await storedPost(response.body.slug);
    expect(item).toMatchObject({
      PK: `POST#mass-${encoding}-${w}`,
      SK: 'POST',
      version: 1,
      author: alice.username,
      is_featured: false,
      tag_slugs: [`mass-${w}`],
    });
    expect(item.id).toMatch(/^[0-9a-f-]{36}$/);
    for (const name of ['GSI1PK', 'FeaturedPK', 'ListPK', 'ViewsSK', 'search', 'expires_at']) expect(item[name], name).toBeUndefined();
    expect(item.author_id).toBe(alice.id);
    const items = await settledTable(api.table);
    expect(items.some((i) => i.PK === 'POST#evil' || i.PK === `POST#chosen-${w}` || i.PK === 'ENTRY#chosen-id')).toBe(false);
    // The post is listed as any other: its entries are its own, not the body's.
    expect(invariantProblems(items)).toEqual([]);
    expect((await alice.api.get(`/users/detail/${alice.username}`)).body.total_featured_posts).toBe(0);
  });

  it.each(['json', 'form'] as const)('PUT /posts/detail/{slug} (%s)', async (encoding) => {
    const created = await alice.api.post('/posts', { form: { title: `Edit ${encoding} ${w}`, description: 'd', publish: 'true' } });
    const slug = created.body.slug as string;
    const before = await storedPost(slug);
    // `modified` is no read-only field of an update: it is the version the editor read, and one
    // other than the post's is a conflict (409; test/api/caching.test.ts). Here it is the post's own.
    const fields = { ...STORAGE, ...POST_READ_ONLY, modified: created.body.modified, author: bob.username, description: 'changed' };
    const response =
      encoding === 'json'
        ? await alice.api.put(`/posts/detail/${slug}`, { json: fields })
        : await alice.api.put(`/posts/detail/${slug}`, { form: asForm(fields) });
    expect(response.status, response.text).toBe(200);
    expect(response.body).toMatchObject({
      author: alice.username,
      slug,
      description: 'changed',
      is_featured: false,
      rating_likes: 0,
      total_visitors: 0,
      created: created.body.created,
    });
    const after = await storedPost(slug);
    expect(after).toMatchObject({
      id: before.id,
      author: alice.username,
      author_id: alice.id,
      version: before.version + 1,
      is_featured: false,
      created: before.created,
    });
    for (const name of ['GSI1PK', 'FeaturedPK', 'ListPK', 'ViewsSK', 'search']) expect(after[name], name).toBeUndefined();
    expect(invariantProblems(await settledTable(api.table))).toEqual([]);
    // Not even the author can move the post to a slug of their choosing.
    expect((await alice.api.get(`/posts/detail/chosen-${w}`)).status).toBe(404);
  });

  it.each(['json', 'form'] as const)('PUT /users/detail/{username} (%s)', async (encoding) => {
    const user = await api.user('ma_user');
    const path = `/users/detail/${user.username}`;
    const credentials = async () =>
      (await db().send(new GetCommand({ TableName: api.table, Key: keys.userCredentials(user.username), ConsistentRead: true }))).Item!;
    const before = { profile: (await user.api.get(path)).body, credentials: await credentials() };
    const fields = {
      ...STORAGE,
      PK: `USER#${alice.username}`,
      user: alice.username,
      username: alice.username,
      password: 'new-password-by-mass-assignment',
      last_login: '2000-01-01 00:00:00.000000+00:00',
      date_joined: '2000-01-01 00:00:00.000000+00:00',
      total_posts: 99,
      total_favorites: 98,
      total_featured_posts: 97,
      location: 'Here',
    };
    const response = encoding === 'json' ? await user.api.put(path, { json: fields }) : await user.api.put(path, { form: asForm(fields) });
    expect(response.status, response.text).toBe(200);
    expect(Object.keys(response.body)).toEqual(PROFILE_FIELDS);
    expect(response.body).toEqual({ ...before.profile, location: 'Here' });
    expect(await credentials()).toEqual(before.credentials);
    // Still active, still able to log in with the old password, not with the injected one.
    expect((await user.api.get('/auth')).status).toBe(200);
    expect((await api.client().post('/login', { json: { username: user.username, password: user.password } })).status).toBe(200);
    expect((await api.client().post('/login', { json: { username: user.username, password: fields.password } })).status).toBe(400);
    // Alice's profile is untouched.
    expect((await bob.api.get(`/users/detail/${alice.username}`)).body.location).toBeNull();
  });

  it.each(['json', 'form'] as const)('PUT /users/detail/{username}: is_moderator is read-only (%s)', async (encoding) => {
    const user = await api.user('ma_mod');
    const path = `/users/detail/${user.username}`;
    const fields = { is_moderator: true, location: 'There' };
    const response = encoding === 'json' ? await user.api.put(path, { json: fields }) : await user.api.put(path, { form: asForm(fields) });
    expect(response.status, response.text).toBe(200);
    expect(response.body).toMatchObject({ location: 'There', is_moderator: false });
    expect((await user.api.get('/auth')).body.is_moderator).toBe(false);
    // Still no moderator's route for them.
    expect((await user.api.get('/reports')).body).toEqual({ detail: 'Only moderators may do this.' });
  });

  it.each(['json', 'form'] as const)("POST and PUT of a comment: author, hidden_by, status and counts are not the body's (%s)", async (encoding) => {
    const post = (await alice.api.post('/posts', { form: { title: `Commented ${encoding} ${w}`, description: 'd', publish: 'true' } })).body;
    const forged = {
      ...STORAGE,
      author: alice.username,
      author_id: alice.id,
      hidden_by: 'moderator',
      status: 'hidden',
      edited: true,
      total_replies: 50,
      in_reply_to: 'A'.repeat(22),
      post: 'elsewhere',
      created: '2000-01-01T00:00:00.000000+00:00',
      modified: '2000-01-01T00:00:00.000000+00:00',
    };
    const path = `/posts/detail/${post.slug}/comments`;
    const fields = { ...forged, body: 'Mine' };
    const made = encoding === 'json' ? await bob.api.post(path, { json: fields }) : await bob.api.post(path, { form: asForm(fields) });
    expect(made.status, made.text).toBe(201);
    expect(made.body).toMatchObject({
      author: bob.username,
      post: post.slug,
      body: 'Mine',
      status: 'published',
      hidden_by: null,
      edited: false,
      total_replies: 0,
      parent: null,
      in_reply_to: null,
    });
    expect(made.body.id).not.toBe('chosen-id');
    expect(made.body.created).not.toBe(forged.created);
    // An edit by its author: only the body changes (`status` would need a moderator or the post's
    // author, and `modified` is the version the editor read: neither is forged here).
    const edit = Object.fromEntries(Object.entries({ ...forged, body: 'Mine, edited' }).filter(([name]) => name !== 'status' && name !== 'modified'));
    const commentPath = `/comments/detail/${made.body.id}`;
    const edited = encoding === 'json' ? await bob.api.put(commentPath, { json: edit }) : await bob.api.put(commentPath, { form: asForm(edit) });
    expect(edited.status, edited.text).toBe(200);
    expect(edited.body).toMatchObject({
      id: made.body.id,
      author: bob.username,
      body: 'Mine, edited',
      status: 'published',
      hidden_by: null,
      edited: true,
      total_replies: 0,
    });
    expect((await alice.api.get(`/posts/detail/${post.slug}`)).body.total_comments).toBe(1);
    expect(invariantProblems(await settledTable(api.table))).toEqual([]);
  });

  it.each(['json', 'form'] as const)("POST a report: reporter, status and resolution are not the body's (%s)", async (encoding) => {
    const post = (await alice.api.post('/posts', { form: { title: `Reported ${encoding} ${w}`, description: 'd', publish: 'true' } })).body;
    const fields = {
      ...STORAGE,
      reason: 'spam',
      reporter: alice.username,
      status: 'dismissed',
      resolved: '2000-01-01T00:00:00.000000+00:00',
      resolved_by: alice.username,
      open_reports: 99,
      target: 'x',
    };
    const path = `/posts/detail/${post.slug}/report`;
    const filed = encoding === 'json' ? await bob.api.post(path, { json: fields }) : await bob.api.post(path, { form: asForm(fields) });
    expect(filed.status, filed.text).toBe(201);
    expect(filed.body).toMatchObject({
      reason: 'spam',
      note: null,
      reporter: bob.username,
      status: 'open',
      resolved: null,
      resolved_by: null,
      open_reports: 1,
    });
    expect(filed.body.target).toMatchObject({ type: 'post', slug: post.slug });
  });

  it.each(['json', 'form'] as const)('POST /tags (%s)', async (encoding) => {
    const fields = { ...STORAGE, PK: 'TAG#evil', total_posts: 50, title_lc: 'evil', created: '2000-01-01', title: `Tag mass ${encoding} ${w}` };
    const response = encoding === 'json' ? await bob.api.post('/tags', { json: fields }) : await bob.api.post('/tags', { form: asForm(fields) });
    expect(response.status, response.text).toBe(201);
    expect(response.body).toEqual({ title: fields.title, slug: `tag-mass-${encoding}-${w}`, total_posts: 0 });
    const items = await settledTable(api.table);
    expect(items.some((i) => i.PK === 'TAG#evil')).toBe(false);
    expect(items.find((i) => i.PK === `TAG#tag-mass-${encoding}-${w}`)).toMatchObject({ total_posts: 0, title_lc: fields.title.toLowerCase() });
  });

  it('POST /login ignores everything but the credentials', async () => {
    const response = await api
      .client()
      .post('/login', { json: { username: bob.username, password: bob.password, id: 1, user_id: alice.id, is_active: true, expires_at: 9_999_999_999 } });
    expect(response.status).toBe(200);
    expect(Object.keys(response.body)).toEqual(['token']);
    const check = await api.client(response.body.token).get('/auth');
    expect(check.body).toEqual({ id: bob.id, token: response.body.token, username: bob.username, is_moderator: false });
  });

  it('prototype keys in JSON bodies change nothing, in the stored data or in the process', async () => {
    const raw = (n: number, extra: string) =>
      `{"title": "Proto ${w} ${n}", "description": "d", "__proto__": {"publish": true, "is_featured": true, "isAdmin": true}, "constructor": {"prototype": {"publish": true}}${extra}}`;
    for (const [path, method, body] of [
      ['/posts', 'POST', raw(1, '')],
      ['/posts', 'POST', raw(2, ', "prototype": {"publish": true}')],
      [`/users/detail/${alice.username}`, 'PUT', '{"__proto__": {"location": "polluted"}, "constructor": {"prototype": {"location": "polluted"}}}'],
      ['/tags', 'POST', `{"title": "Proto tag ${w}", "__proto__": {"total_posts": 5}}`],
      ['/login', 'POST', `{"username": "${alice.username}", "password": "${alice.password}", "__proto__": {"is_active": true}}`],
    ] as const) {
      const response = await alice.api.request(method, path, { raw: body, headers: { 'Content-Type': 'application/json' } });
      expect(response.status, `${method} ${path}: ${response.text}`).toBeLessThan(300);
      if (path === '/posts') expect(response.body).toMatchObject({ publish: false, is_featured: false });
      if (path === '/tags') expect(response.body.total_posts).toBe(0);
      if (path.startsWith('/users')) expect(response.body.location).toBeNull();
      expectNoPollution();
    }
    // Form fields named like prototype keys are plain (ignored) fields too.
    const form = await alice.api.post('/posts', {
      raw: `title=Proto+form+${w}&description=d&__proto__%5Bpublish%5D=true&constructor%5Bprototype%5D%5Bpublish%5D=true&__proto__=x`,
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    expect(form.status, form.text).toBe(201);
    expect(form.body.publish).toBe(false);
    expectNoPollution();
  });
});

describe('responses carry exactly the contract fields', () => {
  it("never a storage attribute, a hash or another user's secret", async () => {
    const created = await alice.api.post('/posts', { form: { title: `Exposed ${w}`, description: 'd', tags: `Exposed ${w}`, publish: 'true' } });
    const responses = {
      post: [
        created.body,
        (await bob.api.get(`/posts/detail/${created.body.slug}`)).body,
        ...(await bob.api.get('/posts', { query: { q: `exposed ${w}` } })).body,
      ],
      profile: [(await bob.api.get(`/users/detail/${alice.username}`)).body, ...(await bob.api.get('/users')).body],
      tag: [(await bob.api.get(`/tags/detail/exposed-${w}`)).body, ...(await bob.api.get('/tags', { query: { q: `exposed ${w}` } })).body],
    };
    for (const body of responses.post) expect(Object.keys(body)).toEqual(POST_FIELDS);
    for (const body of responses.profile) expect(Object.keys(body)).toEqual(PROFILE_FIELDS);
    for (const body of responses.tag) expect(Object.keys(body)).toEqual(TAG_FIELDS);
    const text = JSON.stringify(responses);
    for (const secret of [alice.token, alice.password, bob.token, '$2b$', '$2a$', 'TOKEN#', 'CREDENTIALS', 'version']) expect(text).not.toContain(secret);
    // Only the caller's own token comes back, from GET /auth.
    expect((await bob.api.get('/auth')).body).toEqual({ id: bob.id, token: bob.token, username: bob.username, is_moderator: false });
  });
});

describe('function-level authorization', () => {
  it("no route exposes an administrator's action; they live in the admin CLI only", () => {
    const operations = [
      'POST /login',
      'GET /logout',
      'GET /auth',
      'GET /users',
      'GET /users/detail/{username}',
      'PUT /users/detail/{username}',
      'GET /tags',
      'POST /tags',
      'GET /tags/detail/{slug}',
      'GET /posts',
      'POST /posts',
      'GET /posts/detail/{slug}',
      'PUT /posts/detail/{slug}',
      'DELETE /posts/detail/{slug}',
      'GET /posts/tagged/{slug}',
      'GET /posts/author/{username}',
      'GET /posts/me',
      // A user's own sign-up and password change (an administrator's set-password stays in the CLI).
      'POST /users',
      'POST /users/detail/{username}/password',
      'GET /posts/detail/{slug}/vote',
      'POST /posts/detail/{slug}/vote',
      'DELETE /posts/detail/{slug}/vote',
      'GET /posts/detail/{slug}/favorite',
      'POST /posts/detail/{slug}/favorite',
      'DELETE /posts/detail/{slug}/favorite',
      'GET /users/detail/{username}/favorites',
      // v1.3: comments, reports, and the moderators' routes, which answer 403 to anyone the
      // administrator did not make a moderator (`set-moderator` stays in the CLI).
      'GET /posts/detail/{slug}/comments',
      'POST /posts/detail/{slug}/comments',
      'GET /comments/detail/{id}',
      'PUT /comments/detail/{id}',
      'DELETE /comments/detail/{id}',
      'GET /comments/detail/{id}/replies',
      'GET /users/detail/{username}/comments',
      'GET /posts/detail/{slug}/report',
      'POST /posts/detail/{slug}/report',
      'GET /comments/detail/{id}/report',
      'POST /comments/detail/{id}/report',
      'GET /reports',
      'POST /reports/detail/{id}/resolve',
      'GET /users/detail/{username}/suspension',
      'POST /users/detail/{username}/suspension',
      'DELETE /users/detail/{username}/suspension',
    ];
    const routes = ROUTES.map((route) => ({ key: `${route.method} ${route.path}`, access: route.access }));
    for (const operation of operations) expect(routes.map((r) => r.key)).toContain(operation);
    // Anything else (the API's documentation) never writes to the table.
    for (const route of routes.filter((r) => !operations.includes(r.key))) {
      expect(route.key, 'an extra route').toMatch(/^GET /);
      expect(route.access, route.key).not.toBe('read-write');
      expect(route.key).not.toMatch(/feature|password|deactivate|admin|user/i);
    }
  });

  it('guessed administrator paths and methods answer 404 or 405 and do nothing', async () => {
    const before = await settledTable(api.table);
    const attempts = await Promise.all([
      alice.api.post(`/users/detail/${bob.username}/deactivate`, { json: {} }),
      alice.api.delete(`/users/detail/${bob.username}`),
      alice.api.request('PATCH', `/users/detail/${bob.username}`, { json: { is_active: false } }),
      alice.api.put('/tags/detail/anything', { json: { total_posts: 1 } }),
      alice.api.delete('/tags/detail/anything'),
      alice.api.post('/posts/detail/x/feature', { json: {} }),
      alice.api.post('/admin/feature-post', { json: { slug: 'x' } }),
      alice.api.post('/users/detail/x/password', { json: { password: 'x' } }),
      alice.api.get('/admin'),
      alice.api.post('/signup', { json: { username: 'x', password: 'y' } }),
    ]);
    for (const response of attempts) expect([404, 405], response.text).toContain(response.status);
    expect((await settledTable(api.table)).length).toBe(before.length);
  });
});

describe('outbound requests (server-side request forgery)', () => {
  it('the service code calls nothing but DynamoDB: no HTTP client, socket or fetch in lib/ or functions/', () => {
    const files = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
        entry.isDirectory() ? files(join(dir, entry.name)) : entry.name.endsWith('.ts') ? [join(dir, entry.name)] : [],
      );
    const sources = [...files('lib'), ...files('functions')];
    expect(sources.length).toBeGreaterThan(30);
    for (const file of sources) {
      const text = readFileSync(file, 'utf8');
      expect(text, file).not.toMatch(/from ['"](node:)?(http|https|http2|net|tls|dgram)['"]/);
      expect(text, file).not.toMatch(/\bfetch\s*\(|XMLHttpRequest|axios|undici/);
    }
  });

  it('stores URL fields as text and never follows them', async () => {
    // A URL pointing at the instance metadata service is only a string to the service.
    const response = await bob.api.put(`/users/detail/${bob.username}`, {
      form: { website: 'http://169.254.169.254/latest/meta-data/', github: 'http://localhost:8000/' },
    });
    expect(response.status).toBe(200);
    expect(response.body.website).toBe('http://169.254.169.254/latest/meta-data/');
    const rejected = await bob.api.put(`/users/detail/${bob.username}`, { form: { website: 'file:///etc/passwd' } });
    expect(rejected.status).toBe(400);
  });
});
