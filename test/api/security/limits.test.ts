import { beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '#lib/auth/create-account.ts';
import { unique } from '../../support/api.ts';
import { useApi } from '../../support/fixture.ts';
import { fingerprint, settledTable } from '../reliability/table.ts';
import { rawRequest } from '../reliability/raw-http.ts';

// Unrestricted resource consumption (OWASP API4): every body is capped at 1 MiB (413) on every
// route, every page at its maximum page_size whatever the client asks, every field at its length;
// a refused request stores nothing. (The per-field profile limits are in users.test.ts; the tag
// page cap in tags.test.ts.)

const MiB = 1024 * 1024;
const api = useApi({ users: { alice: 'lm_alice' } });
const { alice } = api.users;
let origin: string;
const w = unique('lm').toLowerCase();

beforeAll(() => {
  origin = new URL(api.url).origin;
});

const tooLong = (n: number) => `Ensure this field has no more than ${n} characters.`;

describe('body size', () => {
  const routes = (slug: string): [string, string, boolean][] => [
    ['POST', '/api/v1/login', false],
    ['GET', '/api/v1/logout', true],
    ['GET', '/api/v1/auth', true],
    ['PUT', `/api/v1/users/detail/${alice.username}`, true],
    ['GET', '/api/v1/users', true],
    ['POST', '/api/v1/tags', true],
    ['GET', '/api/v1/tags', true],
    ['POST', '/api/v1/posts', true],
    ['GET', '/api/v1/posts', true],
    ['PUT', `/api/v1/posts/detail/${slug}`, true],
    ['GET', `/api/v1/posts/detail/${slug}`, true],
    ['DELETE', `/api/v1/posts/detail/${slug}`, true],
  ];

  it('answers 413 on every route for a body one byte over 1 MiB, JSON or form, and stores nothing', async () => {
    const post = await alice.api.post('/posts', { form: { title: `Sized ${w}`, description: 'd', publish: 'true' } });
    const slug = post.body.slug as string;
    const before = fingerprint(await settledTable(api.table));
    for (const [method, path, authed] of routes(slug)) {
      for (const [type, body] of [
        ['application/json', JSON.stringify({ title: 'Big', description: 'x'.repeat(MiB) }).slice(0, MiB + 1)],
        ['application/x-www-form-urlencoded', `title=Big&description=${'x'.repeat(MiB)}`.slice(0, MiB + 1)],
      ] as const) {
        expect(Buffer.byteLength(body)).toBe(MiB + 1);
        const response = await rawRequest(origin, {
          method,
          path,
          body,
          headers: { 'Content-Type': type, ...(authed ? { Authorization: `Token ${alice.token}` } : {}) },
        });
        expect(response.status, `${method} ${path} ${type}`).toBe(413);
        expect(JSON.parse(response.text)).toEqual({ detail: `Request body exceeds the limit of ${MiB} bytes.` });
      }
    }
    expect(fingerprint(await settledTable(api.table)), 'nothing stored').toBe(before);
    expect((await alice.api.get('/auth')).status, 'the token still works (logout refused)').toBe(200);
  });

  it('parses a body of exactly 1 MiB (then applies the field limits)', async () => {
    const skeleton = JSON.stringify({ title: `Exact ${w}`, description: '' });
    const body = JSON.stringify({ title: `Exact ${w}`, description: 'x'.repeat(MiB - skeleton.length) });
    expect(Buffer.byteLength(body)).toBe(MiB);
    const response = await rawRequest(origin, {
      method: 'PUT',
      path: `/api/v1/users/detail/${alice.username}`,
      body,
      headers: { 'Content-Type': 'application/json', Authorization: `Token ${alice.token}` },
    });
    expect(response.status).toBe(200);
  });
});

describe('page size', () => {
  it('caps /users and /posts at 100 whatever page_size asks, with a Link to the rest', async () => {
    for (let i = 0; i < 101; i += 25) await Promise.all(Array.from({ length: Math.min(25, 101 - i) }, (_, k) => createUser(`${w}u${i + k}`, null)));
    for (let i = 0; i < 101; i += 25) {
      const created = await Promise.all(
        Array.from({ length: Math.min(25, 101 - i) }, (_, k) =>
          alice.api.post('/posts', { form: { title: `Paged ${w} ${i + k}`, description: 'p', publish: 'true' } }),
        ),
      );
      for (const response of created) expect(response.status).toBe(201);
    }
    for (const path of ['/users', '/posts']) {
      for (const size of ['101', '1000', '999999999', '1e6', '-1', 'all', '']) {
        const response = await alice.api.get(path, { query: { page_size: size } });
        expect(response.status, `${path}?page_size=${size}`).toBe(200);
        expect(response.body.length, `${path}?page_size=${size}`).toBe(100);
        expect(response.headers.get('link'), `${path}?page_size=${size}`).toMatch(/rel="next"/);
      }
      // In a GET body too, for the posts list.
      const body = await rawRequest(origin, {
        method: 'GET',
        path: `/api/v1${path}`,
        body: JSON.stringify({ page_size: 100_000 }),
        headers: { 'Content-Type': 'application/json', Authorization: `Token ${alice.token}` },
      });
      expect(body.status).toBe(200);
      expect(JSON.parse(body.text).length).toBeLessThanOrEqual(100);
    }
  }, 120_000);
});

describe('field lengths', () => {
  const emoji = (n: number) => '🎉'.repeat(n);

  it('holds every post field at its limit and refuses one past it, on create and on update, storing nothing', async () => {
    const limits: [string, number, (n: number) => string][] = [
      ['title', 200, (n) => `T${emoji(n - 1)}`],
      ['keywords', 500, emoji],
      ['meta_description', 1_000, emoji],
      // Characters of 2 bytes among 1-byte ones: counted once each (bytes: posts.test.ts).
      ['description', 100_000, (n) => `${'é'.repeat(40_000)}${'d'.repeat(n - 40_000)}`],
    ];
    const target = await alice.api.post('/posts', { form: { title: `Limits ${w}`, description: 'd' } });
    for (const [field, limit, make] of limits) {
      const base = { title: `Limit ${field} ${w}`, description: 'd' };
      const at = await alice.api.post('/posts', { json: { ...base, [field]: make(limit) } });
      expect(at.status, `${field} at ${limit}: ${at.text.slice(0, 200)}`).toBe(201);
      expect([...at.body[field]].length).toBe(limit);
      const before = fingerprint(await settledTable(api.table));
      const over = await alice.api.post('/posts', { json: { ...base, [field]: make(limit + 1) } });
      expect(over.status).toBe(400);
      expect(over.body).toEqual({ [field]: [tooLong(limit)] });
      const overUpdate = await alice.api.put(`/posts/detail/${target.body.slug}`, { form: { [field]: make(limit + 1) } });
      expect(overUpdate.status).toBe(400);
      expect(overUpdate.body).toEqual({ [field]: [tooLong(limit)] });
      expect(fingerprint(await settledTable(api.table)), `${field}: nothing stored`).toBe(before);
    }
  }, 60_000);

  it('holds tags at 20 per post and 100 characters each', async () => {
    const twenty = await alice.api.post('/posts', {
      form: { title: `Tags ${w}`, description: 'd', tags: Array.from({ length: 20 }, (_, i) => `Tag ${w} ${i}`).join(',') },
    });
    expect(twenty.status, twenty.text).toBe(201);
    expect(twenty.body.tags).toHaveLength(20);
    const before = fingerprint(await settledTable(api.table));
    const overTitles = Array.from({ length: 21 }, (_, i) => `Over ${w} ${i}`);
    const more = await alice.api.post('/posts', { form: { title: `Tags over ${w}`, description: 'd', tags: overTitles.join(',') } });
    expect(more.status).toBe(400);
    expect(more.body).toEqual({ tags: ['Ensure this field has no more than 20 elements.'] });
    const moreJson = await alice.api.post('/posts', { json: { title: `Tags over ${w}`, description: 'd', tags: overTitles } });
    expect(moreJson.status).toBe(400);
    expect(moreJson.body).toEqual({ tags: ['Ensure this field has no more than 20 elements.'] });
    const moreUpdate = await alice.api.put(`/posts/detail/${twenty.body.slug}`, { form: { tags: overTitles.join(',') } });
    expect(moreUpdate.status).toBe(400);
    expect(moreUpdate.body).toEqual({ tags: ['Ensure this field has no more than 20 elements.'] });
    const long = await alice.api.put(`/posts/detail/${twenty.body.slug}`, { form: { tags: `ok ${w}, ${'L'.repeat(101)}` } });
    expect(long.status).toBe(400);
    expect(long.body).toEqual({ tags: ['Ensure each tag has no more than 100 characters.'] });
    expect(fingerprint(await settledTable(api.table))).toBe(before);
    const hundred = await alice.api.put(`/posts/detail/${twenty.body.slug}`, { form: { tags: `${'H'.repeat(100 - w.length)}${w}` } });
    expect(hundred.status, hundred.text).toBe(200);
  });

  it("holds a tag's title at 100 and its slug at 200", async () => {
    const at = await alice.api.post('/tags', {
      json: { title: `${'A'.repeat(100 - w.length)}${w}`, slug: `${'s'.repeat(200 - w.length - 1)}-${w}`.slice(0, 200) },
    });
    expect(at.status, at.text).toBe(201);
    const before = fingerprint(await settledTable(api.table));
    const over = await alice.api.post('/tags', { json: { title: `${'B'.repeat(101 - w.length)}${w}`, slug: 'x'.repeat(201) } });
    expect(over.status).toBe(400);
    expect(over.body).toEqual({ title: [tooLong(100)], slug: [tooLong(200)] });
    expect(fingerprint(await settledTable(api.table))).toBe(before);
  });

  it('answers over-long path values and search terms without a failure', async () => {
    const responses = await Promise.all([
      alice.api.get(`/posts/detail/${'a'.repeat(5000)}`),
      alice.api.get(`/tags/detail/${'a'.repeat(5000)}`),
      alice.api.get(`/users/detail/${'a'.repeat(5000)}`),
      alice.api.put(`/posts/detail/${'a'.repeat(5000)}`, { form: { title: 'x' } }),
      alice.api.get('/posts', { query: { q: 'q'.repeat(5000) } }),
      alice.api.get('/tags', { query: { q: '🎉'.repeat(500) } }),
      api.client().post('/login', { json: { username: 'u'.repeat(100_000), password: 'p'.repeat(100_000) } }),
    ]);
    expect(responses.map((r) => r.status)).toEqual([404, 404, 404, 404, 200, 200, 400]);
  });
});
