import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { connect } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../scripts/local/free-port.ts';
import { writeOpenApiDocument } from '../../scripts/openapi/document-file.ts';
import type { ApiResponse, RequestOptions } from '../support/api.ts';
import { useApi } from '../support/fixture.ts';

// A realistic session sent through Prism's validating proxy (@stoplight/prism-cli, `prism proxy`)
// in front of the local API: Prism checks each request and each answer against the document the
// code builds, and reports what does not match in an `sl-violations` header (with --errors=false
// it still forwards the request and passes the answer on). No answer of the session may carry it:
// the document is neither stricter nor looser than the API, either way. Prism cannot proxy a HEAD
// (it parses the empty body as JSON) nor a GET with a body, and answers preflights itself: those
// stay with test/api/openapi.test.ts.

const PRISM = join(import.meta.dirname, '..', '..', 'node_modules', '.bin', 'prism');

/** A request as ApiClient sends it (test/support/api.ts), to the proxy, whose paths lack the API's prefix. */
async function request(baseUrl: string, token: string | undefined, method: string, path: string, options: RequestOptions): Promise<ApiResponse<any>> {
  const headers: Record<string, string> = { Accept: 'application/json', ...(token ? { Authorization: `Token ${token}` } : {}), ...options.headers };
  let body: string | undefined;
  if (options.json !== undefined) {
    body = JSON.stringify(options.json);
    headers['Content-Type'] = 'application/json';
  } else if (options.form) {
    body = new URLSearchParams(options.form).toString();
    headers['Content-Type'] = 'application/x-www-form-urlencoded';
  }
  const query = options.query ? `?${new URLSearchParams(options.query).toString()}` : '';
  const response = await fetch(`${baseUrl}${path}${query}`, { method, headers, ...(body !== undefined ? { body } : {}) });
  const text = await response.text();
  let parsed: unknown = null;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    parsed = null;
  }
  return { status: response.status, headers: response.headers, body: parsed, text };
}

/** Whether something accepts connections on the port of 127.0.0.1. */
function accepts(port: number): Promise<boolean> {
  return new Promise((done) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      done(true);
    });
    socket.once('error', () => done(false));
  });
}

interface Exchange {
  label: string;
  status: number;
  violations: string | null;
}

describe('a session through the Prism proxy', () => {
  const api = useApi({ users: ['alice', 'bob'] });
  let prism: ChildProcess | undefined;
  let output = '';
  let directory: string;
  let proxyUrl: string;
  const exchanges: Exchange[] = [];

  beforeAll(async () => {
    directory = mkdtempSync(join(tmpdir(), 'prism-'));
    const port = await freePort();
    proxyUrl = `http://127.0.0.1:${port}`;
    // Prism matches a request's path against the document's paths as they are (`/posts`), and
    // forwards it to the upstream URL with the path appended: the API's base URL.
    const file = writeOpenApiDocument(join(directory, 'openapi.json'));
    const upstream = api.url;
    prism = spawn(PRISM, ['proxy', file, upstream, '--errors=false', '--host', '127.0.0.1', '--port', String(port), '--verboseLevel', 'warn'], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
    });
    prism.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    prism.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    // Prism reads the document, then listens.
    const deadline = Date.now() + 30_000;
    while (!(await accepts(port))) {
      if (prism.exitCode !== null) throw new Error(`prism exited (${prism.exitCode}):\n${output}`);
      if (Date.now() > deadline) throw new Error(`prism did not start in 30 s:\n${output}`);
      await new Promise((done) => setTimeout(done, 200));
    }
  }, 60_000);

  afterAll(async () => {
    if (prism && prism.exitCode === null) {
      const exited = new Promise((done) => prism!.once('exit', done));
      prism.kill('SIGTERM');
      await Promise.race([exited, new Promise((done) => setTimeout(done, 5_000))]);
      if (prism.exitCode === null) prism.kill('SIGKILL');
    }
    if (directory) rmSync(directory, { recursive: true, force: true });
  });

  /** A client of the proxy that records each exchange and its violations. */
  function through(token?: string) {
    const send = async (method: string, path: string, options: RequestOptions = {}): Promise<ApiResponse<any>> => {
      const response = await request(proxyUrl, token, method, path, options);
      const encoding = options.json !== undefined ? ' (JSON)' : options.form ? ' (form)' : '';
      const query = options.query ? `?${new URLSearchParams(options.query).toString()}` : '';
      exchanges.push({
        label: `${method} ${path}${query}${encoding} → ${response.status}`,
        status: response.status,
        violations: response.headers.get('sl-violations'),
      });
      return response;
    };
    return {
      get: (path: string, options?: RequestOptions) => send('GET', path, options),
      post: (path: string, options?: RequestOptions) => send('POST', path, options),
      put: (path: string, options?: RequestOptions) => send('PUT', path, options),
      delete: (path: string, options?: RequestOptions) => send('DELETE', path, options),
    };
  }

  const violationsOf = (list: Exchange[]) =>
    list.filter((exchange) => exchange.violations !== null).map((exchange) => `${exchange.label}: ${exchange.violations}`);

  it('reports a request the document forbids (which the API refuses too)', async () => {
    const client = through(api.users.alice.token);
    const before = exchanges.length;
    expect((await client.post('/posts', { form: { title: '', description: 'x' } })).status).toBe(400);
    expect((await client.post('/tags', { json: { title: 'Tag', slug: 'Not A Slug' } })).status).toBe(400);
    const seen = exchanges.splice(before);
    expect(violationsOf(seen)).toEqual([
      expect.stringMatching(/^POST \/posts \(form\) → 400: .*"location":\["request","body","title"\].*minLength/),
      expect.stringMatching(/^POST \/tags \(JSON\) → 400: .*"location":\["request","body","slug"\].*pattern/),
    ]);
  });

  it('carries no violation in a whole session, either way', async () => {
    const { alice, bob } = api.users;
    const anonymous = through();

    // Log in (JSON and form), check the token.
    const login = await anonymous.post('/login', { json: { username: alice.username, password: alice.password } });
    expect(login.status).toBe(200);
    const client = through(login.body.token as string);
    const bobLogin = await anonymous.post('/login', { form: { username: bob.username, password: bob.password } });
    expect(bobLogin.status).toBe(200);
    const bobClient = through(bobLogin.body.token as string);
    expect((await client.get('/auth')).status).toBe(200);

    // Profile: read, update by form (an empty birth_date clears it) and by JSON.
    expect((await client.get(`/users/detail/${alice.username}`)).status).toBe(200);
    expect((await client.put(`/users/detail/${alice.username}`, { form: { display_name: 'Alice', birth_date: '' } })).status).toBe(200);
    expect((await client.put(`/users/detail/${alice.username}`, { json: { location: 'Lisbon', birth_date: '1990-04-01', website: '' } })).status).toBe(200);
    expect((await client.get('/users', { query: { page_size: '10' } })).status).toBe(200);

    // Tags: list, create by form and by JSON, detail.
    expect((await client.get('/tags', { query: { q: 'lam' } })).status).toBe(200);
    expect((await client.post('/tags', { form: { title: 'AWS Lambda', slug: 'lambda' } })).status).toBe(201);
    expect((await client.post('/tags', { json: { title: 'DynamoDB' } })).status).toBe(201);
    expect((await client.post('/tags', { json: { title: 'aws lambda' } })).status).toBe(409);
    expect((await client.get('/tags/detail/lambda')).status).toBe(200);

    // Posts: create by form (a checkbox's publish=on) and by JSON, list with paging and sorts.
    const byForm = await client.post('/posts', { form: { title: 'Hello World', description: 'First *post*', tags: 'AWS Lambda, serverless', publish: 'on' } });
    expect(byForm.status).toBe(201);
    const byJson = await client.post('/posts', { json: { title: 'Second post', description: 'More', tags: ['DynamoDB'], keywords: 'aws', publish: true } });
    expect(byJson.status).toBe(201);
    const draft = await client.post('/posts', { json: { title: 'A draft', description: 'Not yet' } });
    expect(draft.status).toBe(201);
    const slug = byForm.body.slug as string;

    const firstPage = await client.get('/posts', { query: { page_size: '1', sort: 'newest' } });
    expect(firstPage.status).toBe(200);
    expect(firstPage.headers.get('link')).toMatch(/rel="next"/);
    expect((await client.get('/posts', { query: { page: '2', page_size: '1' } })).status).toBe(200);
    for (const sort of ['views', 'votes', 'active', 'featured', 'unknown']) expect((await client.get('/posts', { query: { sort } })).status, sort).toBe(200);
    expect((await client.get('/posts', { query: { page_size: '1000', q: 'hello' } })).status).toBe(200);
    expect((await client.get('/posts', { query: { page: '99' } })).status).toBe(404);
    expect((await client.get('/posts/tagged/lambda', { query: { sort: 'votes' } })).status).toBe(200);
    expect((await client.get(`/posts/author/${alice.username}`)).status).toBe(200);
    expect((await client.get('/posts/me', { query: { publish: 'false' } })).status).toBe(200);
    expect((await client.get('/posts/me', { query: { publish: 'yes', page_size: '0' } })).status).toBe(200);

    // Detail, update (form and JSON), unknown slug.
    expect((await bobClient.get(`/posts/detail/${slug}`)).status).toBe(200);
    expect((await client.put(`/posts/detail/${slug}`, { form: { meta_description: 'About Lambda', publish: 'true' } })).status).toBe(200);
    expect((await client.put(`/posts/detail/${draft.body.slug as string}`, { json: { publish: 1, tags: 'serverless' } })).status).toBe(200);
    expect((await bobClient.put(`/posts/detail/${slug}`, { json: { title: 'Mine now' } })).status).toBe(403);
    expect((await client.get('/posts/detail/no-such-post')).status).toBe(404);

    // Votes and favorites.
    expect((await bobClient.post(`/posts/detail/${slug}/vote`, { form: { vote: 'up' } })).status).toBe(200);
    expect((await bobClient.post(`/posts/detail/${slug}/vote`, { json: { vote: 'down' } })).status).toBe(200);
    expect((await bobClient.get(`/posts/detail/${slug}/vote`)).status).toBe(200);
    expect((await client.post(`/posts/detail/${slug}/vote`, { json: { vote: 'up' } })).status).toBe(403);
    expect((await bobClient.delete(`/posts/detail/${slug}/vote`)).status).toBe(200);
    expect((await bobClient.post(`/posts/detail/${slug}/favorite`)).status).toBe(200);
    expect((await bobClient.get(`/posts/detail/${slug}/favorite`)).status).toBe(200);
    expect((await client.get(`/users/detail/${bob.username}/favorites`, { query: { page_size: '5' } })).status).toBe(200);
    expect((await bobClient.get(`/posts/detail/${slug}/related`)).status).toBe(200);
    expect((await bobClient.get('/posts/detail/no-such-post/related')).status).toBe(404);
    expect((await bobClient.delete(`/posts/detail/${slug}/favorite`)).status).toBe(200);

    // Delete, then log out last.
    expect((await client.delete(`/posts/detail/${byJson.body.slug as string}`)).status).toBe(204);
    expect((await client.get('/logout')).status).toBe(200);
    expect((await client.get('/auth')).status).toBe(401);

    expect(exchanges.length).toBeGreaterThan(40);
    expect(violationsOf(exchanges), `prism output:\n${output}`).toEqual([]);
  });
});
