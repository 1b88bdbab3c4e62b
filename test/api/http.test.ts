import { afterEach, describe, expect, it } from 'vitest';
import { startServer } from '../../scripts/local/server.ts';
import { targetOptions, unique, type ApiResponse } from '../support/api.ts';
import { useApi } from '../support/fixture.ts';

const api = useApi({ users: ['alice'] });
const { alice } = api.users;

/** Every error body is a JSON object shaped as DRF shapes it: a detail, or lists of messages. */
function expectDrfError(response: ApiResponse<any>, status: number): void {
  expect(response.status, response.text).toBe(status);
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  const body = JSON.parse(response.text);
  expect(typeof body).toBe('object');
  expect(body).not.toBeNull();
  expect(Array.isArray(body)).toBe(false);
  if ('detail' in body) {
    expect(Object.keys(body)).toEqual(['detail']);
    expect(typeof body.detail).toBe('string');
  } else {
    expect(Object.keys(body).length).toBeGreaterThan(0);
    for (const messages of Object.values(body)) {
      expect(Array.isArray(messages)).toBe(true);
      expect((messages as unknown[]).length).toBeGreaterThan(0);
      for (const message of messages as unknown[]) expect(typeof message).toBe('string');
    }
  }
}

const postFields = () => ({ title: unique('Post'), description: 'Some **markdown**.' });

describe('routing', () => {
  it.each(['/nope', '/posts/detail', '/posts/detail/a/b', '/tags/detail/', '/users/detail', '/post', '/api/v1/posts', '/POSTS'])(
    'answers 404 Not found. for the unknown path %s',
    async (path) => {
      for (const client of [alice.api, api.client()]) {
        const response = await client.get(path);
        expectDrfError(response, 404);
        expect(response.body).toEqual({ detail: 'Not found.' });
      }
    },
  );

  it('answers 404 for an unknown path whatever the method and body', async () => {
    const response = await alice.api.request('PATCH', '/nope', { raw: '{not json', headers: { 'Content-Type': 'application/json' } });
    expectDrfError(response, 404);
    expect(response.body).toEqual({ detail: 'Not found.' });
  });

  it.each([
    ['PATCH', '/posts', 'GET, HEAD, POST'],
    ['DELETE', '/posts', 'GET, HEAD, POST'],
    ['PUT', '/posts', 'GET, HEAD, POST'],
    ['DELETE', '/tags', 'GET, HEAD, POST'],
    ['PATCH', '/tags', 'GET, HEAD, POST'],
    ['PUT', '/tags/detail/x', 'GET, HEAD'],
    ['POST', '/posts/detail/x', 'GET, HEAD, PUT, DELETE'],
    ['PATCH', '/users/detail/x', 'GET, HEAD, PUT'],
    ['GET', '/login', 'POST'],
    ['POST', '/logout', 'GET'],
    ['DELETE', '/auth', 'GET, HEAD'],
  ])('answers %s %s with 405 and Allow: %s', async (method, path, allow) => {
    const response = await alice.api.request(method, path);
    expectDrfError(response, 405);
    expect(response.body).toEqual({ detail: `Method "${method}" not allowed.` });
    const allowed = response.headers
      .get('allow')!
      .split(',')
      .map((m) => m.trim())
      .sort();
    expect(allowed).toEqual(allow.split(', ').sort());
  });

  it('answers 405 before looking at the body', async () => {
    const response = await alice.api.request('PATCH', '/posts', { raw: '{broken', headers: { 'Content-Type': 'application/json' } });
    expectDrfError(response, 405);
    expect(response.body).toEqual({ detail: 'Method "PATCH" not allowed.' });
  });

  it('does not perform the operation of another method', async () => {
    const created = await alice.api.post('/posts', { form: { ...postFields(), publish: 'true' } });
    expect(created.status).toBe(201);
    const patched = await alice.api.request('PATCH', `/posts/detail/${created.body.slug}`, { form: { title: 'Changed' } });
    expectDrfError(patched, 405);
    const after = await alice.api.get(`/posts/detail/${created.body.slug}`);
    expect(after.status).toBe(200);
    expect(after.body.title).toBe(created.body.title);
  });
});

describe('CORS', () => {
  const saved = process.env.CORS_ALLOWED_ORIGINS;
  afterEach(() => {
    if (saved === undefined) delete process.env.CORS_ALLOWED_ORIGINS;
    else process.env.CORS_ALLOWED_ORIGINS = saved;
  });

  const preflight = (path: string, origin: string, method = 'POST') =>
    api.client().request('OPTIONS', path, {
      headers: {
        Origin: origin,
        'Access-Control-Request-Method': method,
        'Access-Control-Request-Headers': 'authorization, content-type',
      },
    });

  const listOf = (value: string | null) =>
    (value ?? '')
      .split(',')
      .map((v) => v.trim().toLowerCase())
      .filter(Boolean);

  it.each([
    ['/posts', 'POST'],
    ['/posts/detail/some-post', 'DELETE'],
    ['/tags', 'GET'],
    ['/users/detail/someone', 'PUT'],
    ['/login', 'POST'],
  ])('answers the preflight of %s %s, allowing Authorization', async (path, method) => {
    const response = await preflight(path, 'https://app.example', method);
    expect(response.status).toBeGreaterThanOrEqual(200);
    expect(response.status).toBeLessThan(300);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(listOf(response.headers.get('access-control-allow-headers'))).toEqual(expect.arrayContaining(['authorization', 'content-type']));
    expect(listOf(response.headers.get('access-control-allow-methods'))).toContain(method.toLowerCase());
  });

  it('sends Access-Control-Allow-Origin and exposes Link on successes and errors', async () => {
    const origin = { Origin: 'https://app.example' };
    const responses = await Promise.all([
      alice.api.get('/tags', { headers: origin }),
      alice.api.post('/posts', { form: postFields(), headers: origin }),
      api.client().get('/posts', { headers: origin }),
      alice.api.get('/posts/detail/does-not-exist', { headers: origin }),
      alice.api.request('PATCH', '/posts', { headers: origin }),
      alice.api.get('/nowhere', { headers: origin }),
      alice.api.post('/posts', { raw: 'x', headers: { ...origin, 'Content-Type': 'text/plain' } }),
      alice.api.post('/posts', { form: { title: '' }, headers: origin }),
      api.client().post('/login', { json: { username: 'nobody', password: 'x' }, headers: origin }),
    ]);
    expect(responses.map((r) => r.status)).toEqual([200, 201, 401, 404, 405, 404, 415, 400, 400]);
    for (const response of responses) {
      expect(response.headers.get('access-control-allow-origin')).toBe('*');
      expect(listOf(response.headers.get('access-control-expose-headers'))).toContain('link');
    }
  });

  it('sends CORS headers on 204 responses', async () => {
    const created = await alice.api.post('/posts', { form: postFields() });
    const deleted = await alice.api.delete(`/posts/detail/${created.body.slug}`, { headers: { Origin: 'https://app.example' } });
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe('');
    expect(deleted.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('echoes only configured origins, with Vary: Origin', async () => {
    // A deployment with its own allowed origins (cdk deploy -c allowedOrigins=...): the API's CORS
    // settings and the functions' CORS_ALLOWED_ORIGINS.
    process.env.CORS_ALLOWED_ORIGINS = 'https://a.example,https://c.example';
    const strict = await startServer({ port: 0, ...targetOptions(), allowedOrigins: ['https://a.example', 'https://c.example'] });
    const client = alice.api.withToken(alice.token);
    const at = (path: string) => `${strict.url}${path}`;
    try {
      const allowed = await client.get(at('/tags'), { headers: { Origin: 'https://a.example' } });
      expect(allowed.status).toBe(200);
      expect(allowed.headers.get('access-control-allow-origin')).toBe('https://a.example');
      expect(listOf(allowed.headers.get('vary'))).toContain('origin');

      const second = await client.get(at('/nowhere'), { headers: { Origin: 'https://c.example' } });
      expect(second.status).toBe(404);
      expect(second.headers.get('access-control-allow-origin')).toBe('https://c.example');

      for (const origin of ['https://b.example', 'https://a.example.evil', 'http://a.example', 'null']) {
        const other = await client.get(at('/tags'), { headers: { Origin: origin } });
        expect(other.status).toBe(200);
        expect(other.headers.get('access-control-allow-origin'), origin).toBeNull();
      }

      const strictPreflight = (origin: string) =>
        api.client().request('OPTIONS', at('/posts'), {
          headers: { Origin: origin, 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'authorization' },
        });
      const allowedPreflight = await strictPreflight('https://a.example');
      expect(allowedPreflight.status).toBe(204);
      expect(allowedPreflight.headers.get('access-control-allow-origin')).toBe('https://a.example');
      expect(listOf(allowedPreflight.headers.get('access-control-allow-headers'))).toContain('authorization');

      const otherPreflight = await strictPreflight('https://b.example');
      expect(otherPreflight.headers.get('access-control-allow-origin')).toBeNull();
      expect(otherPreflight.headers.get('access-control-allow-headers')).toBeNull();
    } finally {
      await strict.close();
    }
  });
});

describe('content types', () => {
  it('answers JSON with Content-Type application/json', async () => {
    const responses = await Promise.all([
      alice.api.get('/auth'),
      alice.api.get('/tags'),
      alice.api.get('/posts'),
      alice.api.get(`/users/detail/${alice.username}`),
      alice.api.post('/posts', { form: postFields() }),
      api.client().get('/auth'),
    ]);
    for (const response of responses) {
      expect(response.headers.get('content-type')).toMatch(/^application\/json(;|$)/);
      expect(() => JSON.parse(response.text)).not.toThrow();
    }
  });

  it('answers 415 for a body of an unsupported media type', async () => {
    const response = await alice.api.post('/posts', { raw: 'title=x&description=y', headers: { 'Content-Type': 'text/plain' } });
    expectDrfError(response, 415);
    expect(response.body).toEqual({ detail: 'Unsupported media type "text/plain" in request.' });

    const xml = await alice.api.put(`/users/detail/${alice.username}`, { raw: '<x/>', headers: { 'Content-Type': 'application/xml' } });
    expectDrfError(xml, 415);
    expect(xml.body).toEqual({ detail: 'Unsupported media type "application/xml" in request.' });

    const multipart = await alice.api.post('/tags', {
      raw: '--b\r\nContent-Disposition: form-data; name="title"\r\n\r\nx\r\n--b--\r\n',
      headers: { 'Content-Type': 'multipart/form-data; boundary=b' },
    });
    expectDrfError(multipart, 415);
  });

  it('answers 415 for a body without a content type', async () => {
    const response = await alice.api.post('/posts', { raw: Buffer.from('title=x&description=y') });
    expectDrfError(response, 415);
  });

  it.each(['application/json', 'application/json; charset=utf-8', 'application/json;charset=UTF-8', 'application/vnd.api+json', 'Application/JSON'])(
    'accepts JSON sent as %s',
    async (contentType) => {
      const fields = postFields();
      const response = await alice.api.post('/posts', { raw: JSON.stringify(fields), headers: { 'Content-Type': contentType } });
      expect(response.status, response.text).toBe(201);
      expect(response.body.title).toBe(fields.title);
    },
  );

  it.each(['application/x-www-form-urlencoded', 'application/x-www-form-urlencoded; charset=UTF-8', 'Application/X-WWW-Form-Urlencoded'])(
    'accepts a form sent as %s',
    async (contentType) => {
      const fields = postFields();
      const response = await alice.api.post('/posts', { raw: new URLSearchParams(fields).toString(), headers: { 'Content-Type': contentType } });
      expect(response.status, response.text).toBe(201);
      expect(response.body.title).toBe(fields.title);
    },
  );
});

describe('malformed bodies', () => {
  it.each(['{', '{"title": }', "{'title': 'x'}", '{"title": "x",}', 'nope', '{"a":1}}'])('answers 400 JSON parse error for %j', async (raw) => {
    const response = await alice.api.post('/posts', { raw, headers: { 'Content-Type': 'application/json' } });
    expectDrfError(response, 400);
    expect(response.body.detail).toMatch(/^JSON parse error - /);
  });

  it.each([
    ['{"username": "alice", "password": "Tr0ub4dor&3', 'an unterminated string'],
    ["{'username': 'alice', 'password': 'Tr0ub4dor&3'}", 'single quotes'],
    ['password=Tr0ub4dor&3', 'a form sent as JSON'],
    ['{"username": "alice", "password": "Tr0ub4dor&3",}', 'a trailing comma'],
    ['Tr0ub4dor&3', 'a bare word'],
  ])('never quotes the body in a JSON parse error: a login with %s', async (raw) => {
    const response = await api.client().post('/login', { raw, headers: { 'Content-Type': 'application/json' } });
    expectDrfError(response, 400);
    expect(response.body.detail).toMatch(/^JSON parse error - /);
    // No piece of the request, not even a short one, comes back.
    for (const piece of ['Tr0u', '4dor', 'alice', 'password', 'username']) expect(response.text).not.toContain(piece);
  });

  it.each([
    ['[1, 2]', 'list'],
    ['[]', 'list'],
    ['"a string"', 'str'],
    ['42', 'int'],
    ['4.5', 'float'],
    ['true', 'bool'],
  ])('answers 400 non_field_errors for the JSON value %s', async (raw, type) => {
    const response = await alice.api.post('/posts', { raw, headers: { 'Content-Type': 'application/json' } });
    expectDrfError(response, 400);
    expect(response.body).toEqual({ non_field_errors: [`Invalid data. Expected a dictionary, but got ${type}.`] });
  });

  it('answers 400 for a JSON null body', async () => {
    const response = await alice.api.post('/posts', { raw: 'null', headers: { 'Content-Type': 'application/json' } });
    expectDrfError(response, 400);
    expect(Object.keys(response.body)).toEqual(['non_field_errors']);
  });

  it('answers 400 non_field_errors for a JSON array on PUT and login too', async () => {
    const expected = { non_field_errors: ['Invalid data. Expected a dictionary, but got list.'] };
    const put = await alice.api.put(`/users/detail/${alice.username}`, { json: ['x'] });
    expectDrfError(put, 400);
    expect(put.body).toEqual(expected);
    const login = await api.client().post('/login', { json: [alice.username, alice.password] });
    expectDrfError(login, 400);
    expect(login.body).toEqual(expected);
  });

  it('answers 413 for a body over 1 MiB and creates nothing', async () => {
    const title = unique('Huge');
    const big = { title, description: 'x'.repeat(1024 * 1024) };
    const json = await alice.api.post('/posts', { json: big });
    expectDrfError(json, 413);
    expect(json.body.detail.length).toBeGreaterThan(0);
    const form = await alice.api.post('/posts', { form: big });
    expectDrfError(form, 413);
    const tag = await alice.api.post('/tags', { raw: 'x'.repeat(1024 * 1024 + 1), headers: { 'Content-Type': 'text/plain' } });
    expectDrfError(tag, 413);
    const listed = await alice.api.get('/posts', { query: { q: title } });
    expect(listed.body).toEqual([]);
    const drafts = await alice.api.get(`/posts/detail/${title.toLowerCase()}`);
    expect(drafts.status).toBe(404);
  });

  it('measures the limit in bytes: exactly 1 MiB is parsed', async () => {
    const fields = postFields();
    const skeleton = JSON.stringify({ ...fields, description: '' });
    const body = JSON.stringify({ ...fields, description: 'x'.repeat(1024 * 1024 - skeleton.length) });
    expect(Buffer.byteLength(body)).toBe(1024 * 1024);
    const exact = await alice.api.post('/posts', { raw: body, headers: { 'Content-Type': 'application/json' } });
    // Parsed and validated (the description is over its own limit), not refused for its size.
    expectDrfError(exact, 400);
    expect(Object.keys(exact.body)).toEqual(['description']);

    // Multi-byte characters count by their UTF-8 size.
    const emoji = JSON.stringify({ ...fields, description: '🎉'.repeat(262_144) });
    expect(Buffer.byteLength(emoji)).toBeGreaterThan(1024 * 1024);
    const tooBig = await alice.api.post('/posts', { raw: emoji, headers: { 'Content-Type': 'application/json' } });
    expectDrfError(tooBig, 413);
  });

  it('never answers 5xx for invalid UTF-8 bytes', async () => {
    const bytes = [
      Buffer.from([0xff, 0xfe, 0xfd]),
      Buffer.concat([Buffer.from('{"title": "'), Buffer.from([0xc3, 0x28, 0xa0, 0xa1]), Buffer.from('", "description": "d"}')]),
      Buffer.concat([Buffer.from('{"title": "ok '), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from('", "description": "d"}')]),
    ];
    for (const raw of bytes) {
      for (const contentType of ['application/json', 'application/x-www-form-urlencoded']) {
        const response = await alice.api.post('/posts', { raw, headers: { 'Content-Type': contentType } });
        expect(response.status, `${contentType} ${raw.toString('hex')}: ${response.text}`).toBeLessThan(500);
        if (response.status >= 400) expectDrfError(response, response.status);
      }
    }
    const form = await alice.api.post('/posts', { raw: 'title=%FF%FE&description=%C3%28', headers: { 'Content-Type': 'application/x-www-form-urlencoded' } });
    expect(form.status, form.text).toBeLessThan(500);
    if (form.status >= 400) expectDrfError(form, form.status);
  });

  it('rejects NUL characters in any text field with 400', async () => {
    const cases: Record<string, string>[] = [
      { title: 'a\u0000b', description: 'd' },
      { title: 'ok', description: 'd\u0000' },
      { title: 'ok', description: 'd', keywords: '\u0000' },
      { title: 'ok', description: 'd', meta_description: 'x\u0000y' },
    ];
    for (const fields of cases) {
      for (const encoding of ['form', 'json'] as const) {
        const response = await alice.api.post('/posts', encoding === 'form' ? { form: fields } : { json: fields });
        expectDrfError(response, 400);
        const [field] = Object.keys(fields).filter((name) => fields[name]!.includes('\u0000'));
        expect(response.body).toEqual({ [field!]: ['Null characters are not allowed.'] });
      }
    }
    const tags = await alice.api.post('/posts', { form: { title: 'ok', description: 'd', tags: 'fine,ba\u0000d' } });
    expectDrfError(tags, 400);
    expect(tags.body).toEqual({ tags: ['Null characters are not allowed.'] });
    const tag = await alice.api.post('/tags', { json: { title: 'nul\u0000tag' } });
    expectDrfError(tag, 400);
    expect(tag.body).toEqual({ title: ['Null characters are not allowed.'] });
    const profile = await alice.api.put(`/users/detail/${alice.username}`, { form: { location: 'here\u0000' } });
    expectDrfError(profile, 400);
    expect(profile.body).toEqual({ location: ['Null characters are not allowed.'] });
    const login = await api.client().post('/login', { json: { username: alice.username, password: `${alice.password}\u0000` } });
    expect(login.status).toBe(400);
  });

  it('never answers 5xx for NUL or control characters in paths and queries', async () => {
    const requests = [
      alice.api.get('/posts/detail/%00'),
      alice.api.get('/tags/detail/a%00b'),
      alice.api.get('/users/detail/%00'),
      alice.api.put('/posts/detail/%01', { form: { title: 'x' } }),
      alice.api.delete('/posts/detail/%7F'),
      alice.api.get('/posts', { query: { q: '\u0000' } }),
      alice.api.get('/posts', { query: { q: 'a\u0001\u001f', sort: '\u0000' } }),
      alice.api.get('/tags', { query: { q: '\u0000' } }),
      alice.api.get('/users', { query: { page: '\u0000' } }),
      alice.api.get('/tags', { query: { cursor: '\u0000', page: '2' } }),
      alice.api.get('/posts/detail/%E0%A4%A'),
    ];
    for (const response of await Promise.all(requests)) {
      expect(response.status, response.text).toBeLessThan(500);
      if (response.status >= 400) expectDrfError(response, response.status);
    }
  });

  it('treats a NUL in q as a separator between words, as any character that is not a letter or digit', async () => {
    const marker = unique('nul').toLowerCase();
    const created = await alice.api.post('/posts', { form: { title: `Title ends ${marker}`, description: `${marker} starts description`, publish: 'true' } });
    expect(created.status).toBe(201);
    const separated = await alice.api.get('/posts', { query: { q: `ends\u0000${marker}` } });
    expect(separated.status).toBe(200);
    expect(separated.body.map((p: any) => p.slug)).toEqual([created.body.slug]);
    const glued = await alice.api.get('/posts', { query: { q: `${marker}\u0000nothing` } });
    expect(glued.status).toBe(200);
    expect(glued.body).toEqual([]);
  });

  it('keeps other control characters in fields as they were sent', async () => {
    const title = `Bell\u0007 tab\t ${unique('ctl')}`;
    const description = 'line1\nline2\r\n\u001b[31mred\u001b[0m \u0085 \u2028';
    const created = await alice.api.post('/posts', { json: { title, description } });
    expect(created.status, created.text).toBe(201);
    const read = await alice.api.get(`/posts/detail/${created.body.slug}`);
    expect(read.status).toBe(200);
    expect(read.body.title).toBe(title.trim());
    expect(read.body.description).toBe(description.trim());
  });

  it('rejects lone surrogates sent as JSON escapes', async () => {
    const response = await alice.api.post('/posts', {
      raw: '{"title": "bad \\ud800 title", "description": "d"}',
      headers: { 'Content-Type': 'application/json' },
    });
    expectDrfError(response, 400);
    expect(Object.keys(response.body)).toEqual(['title']);
  });
});

describe('Unicode', () => {
  it('stores and returns emoji and other scripts exactly', async () => {
    const marker = unique('uni');
    const title = `🎉 Ünïcödé 日本語 Ελληνικά ${marker}`;
    const description = '👩‍👩‍👧‍👦 família 𝔘𝔫𝔦𝔠𝔬𝔡𝔢 العربية';
    for (const encoding of ['form', 'json'] as const) {
      const fields = { title: `${title} ${encoding}`, description, tags: `Café ${marker}, 🎉 party ${marker}`, publish: 'true' };
      const created = await alice.api.post('/posts', encoding === 'form' ? { form: fields } : { json: fields });
      expect(created.status, created.text).toBe(201);
      expect(created.body.title).toBe(fields.title);
      expect(created.body.description).toBe(description);
      expect(created.body.slug).toMatch(new RegExp(`^unicode-([a-z0-9-]+-)?${marker.toLowerCase()}-${encoding}$`));
      expect(created.body.tags).toEqual([`Café ${marker}`, `🎉 party ${marker}`]);
      const read = await alice.api.get(`/posts/detail/${created.body.slug}`);
      expect(read.body.title).toBe(fields.title);
      expect(read.body.description).toBe(description);
    }
    const search = await alice.api.get('/posts', { query: { q: 'ÜNÏCÖDÉ 日本語' } });
    expect(search.status).toBe(200);
    expect(search.body.map((p: any) => p.title).sort()).toEqual([`${title} form`, `${title} json`].sort());
    const tag = await alice.api.get(`/tags/detail/cafe-${marker.toLowerCase()}`);
    expect(tag.body).toEqual({ title: `Café ${marker}`, slug: `cafe-${marker.toLowerCase()}`, total_posts: 2 });
  });

  it('accepts a 200-character emoji title, counted in characters', async () => {
    const title = `a${'🎉'.repeat(199)}`;
    const created = await alice.api.post('/posts', { json: { title, description: 'd' } });
    expect(created.status, created.text).toBe(201);
    expect(created.body.title).toBe(title);
    const tooLong = await alice.api.post('/posts', { json: { title: `${title}🎉`, description: 'd' } });
    expectDrfError(tooLong, 400);
    expect(tooLong.body).toEqual({ title: ['Ensure this field has no more than 200 characters.'] });
  });

  it('answers 400 for a title with no letter or digit to slug', async () => {
    const response = await alice.api.post('/posts', { form: { title: '🎉🎉🎉', description: 'd' } });
    expectDrfError(response, 400);
    expect(Object.keys(response.body)).toEqual(['title']);
  });
});

describe('authentication order and headers', () => {
  it('checks authentication before the body', async () => {
    const anonymous = api.client();
    const bad = api.client('0123456789abcdef0123456789abcdef01234567');
    const cases = [
      { raw: '{broken', headers: { 'Content-Type': 'application/json' } },
      { raw: '[1]', headers: { 'Content-Type': 'application/json' } },
      { raw: 'x', headers: { 'Content-Type': 'text/plain' } },
      { raw: 'x'.repeat(1024 * 1024 + 10), headers: { 'Content-Type': 'application/json' } },
      { form: { title: '' } },
    ];
    for (const options of cases) {
      const missing = await anonymous.post('/posts', options);
      expectDrfError(missing, 401);
      expect(missing.body).toEqual({ detail: 'Authentication credentials were not provided.' });
      expect(missing.headers.get('www-authenticate')).toBe('Token');
      const invalid = await bad.put('/posts/detail/whatever', options);
      expectDrfError(invalid, 401);
      expect(invalid.body).toEqual({ detail: 'Invalid token.' });
    }
  });

  it('answers 401 Invalid token. for an unknown well-formed token', async () => {
    const token = 'abcdef0123456789abcdef0123456789abcdef01';
    for (const path of ['/auth', '/tags', '/posts', '/users']) {
      const response = await api.client().get(path, { headers: { Authorization: `Token ${token}` } });
      expectDrfError(response, 401);
      expect(response.body).toEqual({ detail: 'Invalid token.' });
      expect(response.headers.get('www-authenticate')).toBe('Token');
    }
  });

  it('answers 401 Invalid token. for a malformed token value', async () => {
    for (const token of ['short', 'ABCDEF0123456789ABCDEF0123456789ABCDEF01', 'g'.repeat(40), '0'.repeat(41), 'caf\u00e9']) {
      const response = await api.client().get('/auth', { headers: { Authorization: `Token ${token}` } });
      expectDrfError(response, 401);
      expect(response.body).toEqual({ detail: 'Invalid token.' });
    }
  });

  it('treats a header that is not "Token <value>" as missing credentials', async () => {
    for (const header of [
      '',
      'Token',
      'Token ',
      `Bearer ${alice.token}`,
      `Basic ${Buffer.from('a:b').toString('base64')}`,
      `Token ${alice.token} extra`,
      alice.token,
    ]) {
      const response = await api.client().get('/auth', { headers: { Authorization: header } });
      expectDrfError(response, 401);
      expect(response.body, JSON.stringify(header)).toEqual({ detail: 'Authentication credentials were not provided.' });
    }
  });

  it('accepts the keyword in any case', async () => {
    for (const keyword of ['Token', 'token', 'TOKEN']) {
      const response = await api.client().get('/auth', { headers: { Authorization: `${keyword} ${alice.token}` } });
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ id: alice.id, token: alice.token, username: alice.username, is_moderator: false });
    }
  });

  it('answers login errors in DRF shape', async () => {
    const wrong = await api.client().post('/login', { json: { username: alice.username, password: 'wrong' } });
    expectDrfError(wrong, 400);
    expect(wrong.body).toEqual({ non_field_errors: ['Unable to log in with provided credentials.'] });
    const missing = await api.client().post('/login', { json: {} });
    expectDrfError(missing, 400);
    expect(missing.body).toEqual({ username: ['This field is required.'], password: ['This field is required.'] });
  });
});
