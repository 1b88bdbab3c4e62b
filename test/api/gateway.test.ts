import { describe, expect, it } from 'vitest';
import { gatewayEvent } from '../../scripts/local/gateway-event.ts';
import { LAMBDA_RESPONSE_LIMIT_BYTES } from '#lib/http/limits.ts';
import { functionAnswer, selectRoute } from '../../scripts/local/server.ts';
import { corsConfiguration } from '#lib/http/cors.ts';
import { BUNDLES, createPost, startApi, unique } from '../support/api.ts';
import { useApi } from '../support/fixture.ts';

// The local gateway behaves as API Gateway HTTP API (payload 2.0) does on AWS, one behaviour at a
// time; docs/local-gateway.md gives the AWS source of each.

const api = useApi({ users: ['alice'] });
const { alice } = api.users;

const event = (contentType: string | undefined, body = 'a=1') =>
  gatewayEvent({
    method: 'POST',
    routeKey: 'POST /api/v1/posts',
    rawPath: '/api/v1/posts',
    rawQuery: '',
    headers: contentType ? { 'content-type': contentType } : {},
    body: Buffer.from(body),
  });

describe('the target', () => {
  it(`serves every function from ${BUNDLES ? 'its bundle in cdk.out' : 'source'}`, () => {
    for (const fn of api.server.deployment.functions.values()) {
      expect(fn.code.kind, fn.name).toBe(BUNDLES ? 'bundle' : 'source');
      if (fn.code.kind === 'bundle') expect(fn.code.directory).toMatch(/cdk\.out\/asset\.[0-9a-f]+$/);
    }
  });
});

describe('request bodies', () => {
  it.each([
    ['application/json', false],
    ['application/json; charset=utf-8', false],
    ['text/plain', false],
    ['text/plain; charset=UTF-8', false],
    ['application/xml', false],
    ['application/x-www-form-urlencoded', true],
    ['application/x-www-form-urlencoded; charset=utf-8', true],
    ['multipart/form-data; boundary=x', true],
    ['text/plain; charset=iso-8859-1', true],
    ['application/octet-stream', true],
    ['application/vnd.api+json', true],
    [undefined, true],
  ])('a body of type %s arrives base64-encoded: %s', (contentType, encoded) => {
    const built = event(contentType);
    expect(built.isBase64Encoded).toBe(encoded);
    expect(built.body).toBe(encoded ? Buffer.from('a=1').toString('base64') : 'a=1');
  });

  it('leaves the body out of the event when there is none', () => {
    const built = event('application/json', '');
    expect('body' in built).toBe(false);
    expect(built.isBase64Encoded).toBe(false);
  });

  it('gets a form body, base64-encoded on the way, to the function intact', async () => {
    const title = `Café ${unique('form')} & more`;
    const created = await alice.api.post('/posts', { form: { title, description: 'ünïcode + plus', publish: 'true' } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ title, description: 'ünïcode + plus', publish: true });
  });

  it('gets a JSON body of a +json type, base64-encoded on the way, to the function intact', async () => {
    const response = await api.client().post('/login', {
      raw: JSON.stringify({ username: alice.username, password: alice.password }),
      headers: { 'Content-Type': 'application/vnd.api+json' },
    });
    expect(response.status).toBe(200);
    expect(response.body.token).toMatch(/^[0-9a-f]{40}$/);
  });

  it.each(['just some text', 'title'])('answers a malformed form body (%s) with the documented parse error', async (raw) => {
    const response = await alice.api.post('/posts', { raw, headers: { 'Content-Type': 'application/x-www-form-urlencoded' } });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ detail: 'Form parse error - malformed application/x-www-form-urlencoded body.' });
  });

  it('answers a body without Content-Type with 415, as a body of an unknown type', async () => {
    const response = await alice.api.post('/posts', { raw: Buffer.from('title=x') });
    expect(response.status).toBe(415);
  });
});

describe('paths', () => {
  it('hands path parameters to the function decoded', async () => {
    const encoded = [...alice.username].map((c) => `%${c.charCodeAt(0).toString(16)}`).join('');
    const response = await alice.api.get(`/users/detail/${encoded}`);
    expect(response.status).toBe(200);
    expect(response.body.user).toBe(alice.username);
  });

  it('routes a path with one trailing slash as the path without it', async () => {
    const plain = await alice.api.get('/tags');
    const slashed = await alice.api.get('/tags/');
    expect(slashed.status).toBe(200);
    expect(slashed.body).toEqual(plain.body);
    const notAllowed = await alice.api.request('PATCH', '/tags/');
    expect(notAllowed.status).toBe(405);
  });

  it('does not collapse empty segments', async () => {
    expect((await alice.api.get('/posts//detail')).status).toBe(404);
    expect((await alice.api.get('/posts/detail//')).status).toBe(404);
  });

  it('prefers a route without parameters, then falls back to $default', () => {
    const routes = new Map([
      ['GET /api/v1/docs/{asset}', 'DocsAsset'],
      ['GET /api/v1/docs', 'DocsPage'],
      ['$default', 'Fallback'],
    ]);
    expect(selectRoute(routes, 'GET', '/api/v1/docs')).toEqual({ routeKey: 'GET /api/v1/docs', functionName: 'DocsPage' });
    expect(selectRoute(routes, 'GET', '/api/v1/docs/a.css')).toEqual({
      routeKey: 'GET /api/v1/docs/{asset}',
      functionName: 'DocsAsset',
      params: { asset: 'a.css' },
    });
    expect(selectRoute(routes, 'POST', '/api/v1/docs')).toEqual({ routeKey: '$default', functionName: 'Fallback' });
    expect(selectRoute(new Map(), 'GET', '/x')).toBeUndefined();
  });

  it('splits the path at its slashes before decoding it: an encoded slash stays in its parameter', () => {
    const routes = new Map([
      ['GET /api/v1/docs/{asset}', 'DocsAsset'],
      ['GET /api/v1/docs', 'DocsPage'],
      ['$default', 'Fallback'],
    ]);
    const asset = (value: string) => ({ routeKey: 'GET /api/v1/docs/{asset}', functionName: 'DocsAsset', params: { asset: value } });
    expect(selectRoute(routes, 'GET', '/api/v1/docs/a%2Fb.css')).toEqual(asset('a/b.css'));
    expect(selectRoute(routes, 'GET', '/api/v1/docs/a%2F')).toEqual(asset('a/'));
    expect(selectRoute(routes, 'GET', '/api/v1/docs/%C3%A9.css')).toEqual(asset('é.css'));
    expect(selectRoute(routes, 'GET', '/api/v1/docs/a/')).toEqual(asset('a'));
    expect(selectRoute(routes, 'GET', '/api/v1/%64ocs')).toEqual({ routeKey: 'GET /api/v1/docs', functionName: 'DocsPage' });
    expect(selectRoute(routes, 'GET', '/api/v1/docs/a/b.css')).toEqual({ routeKey: '$default', functionName: 'Fallback' });
  });
});

describe('CORS', () => {
  const preflight = (path: string, origin: string) =>
    api
      .client()
      .request('OPTIONS', path, { headers: { Origin: origin, 'Access-Control-Request-Method': 'PUT', 'Access-Control-Request-Headers': 'authorization' } });

  it('answers a preflight itself, from the CORS settings', async () => {
    const response = await preflight('/posts/detail/anything', 'https://app.example');
    expect(response.status).toBe(204);
    expect(response.text).toBe('');
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('access-control-allow-methods')!.split(',')).toContain('PUT');
    expect(response.headers.get('access-control-allow-headers')!.split(',')).toContain('authorization');
    expect(response.headers.get('access-control-max-age')).toBe('86400');
  });

  it('routes an OPTIONS request that is not a preflight like any other method', async () => {
    const noMethod = await api.client().request('OPTIONS', '/posts', { headers: { Origin: 'https://app.example' } });
    expect(noMethod.status).toBe(405);
    expect(noMethod.body).toEqual({ detail: 'Method "OPTIONS" not allowed.' });
    const noOrigin = await api.client().request('OPTIONS', '/nowhere', { headers: { 'Access-Control-Request-Method': 'GET' } });
    expect(noOrigin.status).toBe(404);
  });

  it("replaces the function's CORS headers with its own", async () => {
    // The functions allow any origin (CORS_ALLOWED_ORIGINS is unset); the API allows one.
    const strict = await startApi({ allowedOrigins: ['https://a.example'] });
    try {
      const bob = await strict.user('bob');
      const other = await bob.api.get('/tags', { headers: { Origin: 'https://b.example' } });
      expect(other.status).toBe(200);
      expect(other.headers.get('access-control-allow-origin')).toBeNull();
      expect(other.headers.get('access-control-expose-headers')).toBeNull();
      const allowed = await bob.api.get('/tags', { headers: { Origin: 'https://a.example' } });
      expect(allowed.headers.get('access-control-allow-origin')).toBe('https://a.example');
      expect(allowed.headers.get('access-control-expose-headers')!.split(',')).toEqual(['link', 'etag', 'x-total-count', 'www-authenticate', 'retry-after']);
      const refused = await strict.client().request('OPTIONS', '/tags', { headers: { Origin: 'https://b.example', 'Access-Control-Request-Method': 'GET' } });
      expect(refused.status).toBe(204);
      expect(refused.headers.get('access-control-allow-origin')).toBeNull();
    } finally {
      await strict.close();
    }
  });

  it('adds no CORS headers to a request without Origin', async () => {
    const response = await alice.api.get('/tags');
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('size limits', () => {
  it("answers a request over 10 MiB with API Gateway's 413, before any function", async () => {
    const response = await alice.api.post('/posts', { raw: Buffer.alloc(10 * 1024 * 1024 + 1, 'a'), headers: { 'Content-Type': 'application/json' } });
    expect(response.status).toBe(413);
    expect(response.body).toEqual({ message: 'Request Entity Too Large' });
  });

  it("answers an event over Lambda's 6 MiB invocation limit with API Gateway's 413", async () => {
    // 5 MiB of form: base64 in the event makes it about 6.7 MiB.
    const response = await alice.api.post('/posts', {
      raw: `title=x&description=${'a'.repeat(5 * 1024 * 1024)}`,
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    expect(response.status).toBe(413);
    expect(response.body).toEqual({ message: 'Request Entity Too Large' });
  });

  it('lets a body under the limits reach the function, which applies its own 1 MiB limit', async () => {
    const response = await alice.api.post('/posts', { json: { title: 'x', description: 'a'.repeat(2 * 1024 * 1024) } });
    // Under 10 MiB and, as JSON arrives as text, under Lambda's 6 MiB event.
    expect(response.status).toBe(413);
    expect(response.body).toEqual({ detail: 'Request body exceeds the limit of 1048576 bytes.' });
  });

  it("answers 500 when the function's answer exceeds Lambda's limit, or the function fails", () => {
    const cors = corsConfiguration(['*']);
    const big = JSON.stringify({ statusCode: 200, body: 'x'.repeat(LAMBDA_RESPONSE_LIMIT_BYTES) });
    for (const outcome of [{ payload: big }, { error: { errorType: 'Error', errorMessage: 'boom' } }]) {
      const answer = functionAnswer(outcome, cors, undefined);
      expect(answer.status).toBe(500);
      expect(JSON.parse(answer.body!.toString())).toEqual({ message: 'Internal Server Error' });
    }
    const fits = functionAnswer({ payload: JSON.stringify({ statusCode: 200, body: 'x'.repeat(1000) }) }, cors, undefined);
    expect(fits.status).toBe(200);
  });

  it('takes a result without statusCode as the body (payload 2.0 inference)', () => {
    const answer = functionAnswer({ payload: JSON.stringify({ hello: 'world' }) }, undefined, undefined);
    expect(answer.status).toBe(200);
    expect(answer.headers['Content-Type']).toBe('application/json');
    expect(JSON.parse(answer.body!.toString())).toEqual({ hello: 'world' });
  });
});

describe('HEAD', () => {
  it('answers HEAD on a GET route like GET, without a body', async () => {
    const response = await alice.api.request('HEAD', '/posts');
    expect(response.status).toBe(200);
    expect(response.text).toBe('');
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect((await api.client().request('HEAD', '/posts')).status).toBe(401);
    expect((await alice.api.request('HEAD', '/posts/detail/no-such-post')).status).toBe(404);
    expect((await api.client().request('HEAD', '/openapi.json')).status).toBe(200);
  });

  it('records no visit for HEAD of a post', async () => {
    const bob = await api.user('bob');
    const post = await createPost(alice.api, { title: unique('Head'), description: 'x', publish: 'true' });
    const head = await bob.api.request('HEAD', `/posts/detail/${post.slug}`);
    expect(head.status).toBe(200);
    expect(head.text).toBe('');
    const listed = await bob.api.get('/posts');
    expect(listed.body.find((p: { slug: string }) => p.slug === post.slug).total_visitors).toBe(0);
    expect((await bob.api.get(`/posts/detail/${post.slug}`)).body.total_visitors).toBe(1);
  });

  it('answers HEAD /logout with 405, and the token keeps working', async () => {
    const carol = await api.user('carol');
    const response = await carol.api.request('HEAD', '/logout');
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET');
    expect((await carol.api.get('/auth')).status).toBe(200);
  });

  it('lists HEAD in Allow where GET is', async () => {
    const response = await alice.api.request('PATCH', '/posts');
    expect(response.headers.get('allow')!.split(', ').sort()).toEqual(['GET', 'HEAD', 'POST']);
  });
});
