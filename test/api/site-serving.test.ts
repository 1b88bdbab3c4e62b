import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { SITE_SECURITY_HEADERS } from '#lib/site/headers.ts';
import { inlineCode } from '../../scripts/web/site-build.ts';
import { useApi } from '../support/fixture.ts';

// The site beside the API on one port, as `npm start` serves web/dist and CloudFront serves the
// bucket and the page function: the build's files by path (but index.html and robots.txt), the
// page function's answer for every other path outside /api/, the site's security headers on every
// answer, a year's cache for hashed assets only, and nothing outside the site's folder. A small
// site of its own here, so the rules are tested without a build; the pages' content is the page
// function's (test/api/pages*.test.ts).

const folder = mkdtempSync(join(tmpdir(), 'site-serving-'));
const root = join(folder, 'dist');
const INDEX = '<!doctype html><html lang="en"><head><title>Site</title></head><body><div id="app"></div></body></html>';
const SCRIPT = `console.log(${JSON.stringify('x'.repeat(4000))});`;
mkdirSync(join(root, 'assets'), { recursive: true });
writeFileSync(join(root, 'index.html'), INDEX);
writeFileSync(join(root, 'assets', 'index-AbC123.js'), SCRIPT);
writeFileSync(join(root, 'robots.txt'), 'User-agent: *\nAllow: /\n');
writeFileSync(join(root, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
writeFileSync(join(folder, 'secret.txt'), 'not for the web');

const api = useApi({ siteRoot: root, streams: false });

interface Raw {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** One request with the path exactly as given (fetch would normalize `..` away). */
function raw(method: string, path: string, headers: Record<string, string> = {}): Promise<Raw> {
  const { port } = new URL(api.url);
  return new Promise((done, fail) => {
    const request = httpRequest({ host: '127.0.0.1', port, method, path, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => done({ status: response.statusCode!, headers: response.headers, body: Buffer.concat(chunks) }));
    });
    request.on('error', fail);
    request.end();
  });
}

function expectSecurityHeaders(headers: IncomingHttpHeaders): void {
  for (const [name, value] of Object.entries(SITE_SECURITY_HEADERS)) expect(headers[name], name).toBe(value);
}

describe('the site on the API port', () => {
  it('answers /, a deep link and any path without a file from the page function (HTML), with the security headers', async () => {
    for (const path of ['/', '/posts/hello-world', '/users/alice/favorites', '/no/such/page?x=1', '/index.html', '/robots.txt']) {
      const answer = await raw('GET', path);
      expect(answer.headers['content-type'], path).toBe('text/html; charset=utf-8');
      expect(answer.body.toString(), path).not.toBe(INDEX);
      expectSecurityHeaders(answer.headers);
    }
  });

  it('answers a hashed asset with its type and a year of immutable caching; other files no-cache', async () => {
    const script = await raw('GET', '/assets/index-AbC123.js');
    expect(script.status).toBe(200);
    expect(script.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(script.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(script.body.toString()).toBe(SCRIPT);
    expectSecurityHeaders(script.headers);

    const favicon = await raw('GET', '/favicon.svg');
    expect(favicon.headers['content-type']).toBe('image/svg+xml');
    expect(favicon.headers['cache-control']).toBe('no-cache');
  });

  it('answers HEAD with the headers of GET and no body', async () => {
    for (const path of ['/assets/index-AbC123.js', '/posts/deep-link']) {
      const get = await raw('GET', path);
      const head = await raw('HEAD', path);
      expect(head.status).toBe(200);
      expect(head.body.length).toBe(0);
      for (const name of ['content-type', 'cache-control', 'content-length', 'etag', 'content-security-policy'])
        expect(head.headers[name], name).toBe(get.headers[name]);
    }
  });

  it('compresses for a client that accepts it, and revalidates by ETag', async () => {
    const gzip = await raw('GET', '/assets/index-AbC123.js', { 'Accept-Encoding': 'gzip' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.body).toString()).toBe(SCRIPT);
    expect(gzip.headers.vary).toBe('Accept-Encoding');
    const br = await raw('GET', '/assets/index-AbC123.js', { 'Accept-Encoding': 'gzip, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.body).toString()).toBe(SCRIPT);
    expect((await raw('GET', '/assets/index-AbC123.js')).headers['content-encoding']).toBeUndefined();

    const again = await raw('GET', '/favicon.svg', { 'If-None-Match': (await raw('GET', '/favicon.svg')).headers.etag! });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    expectSecurityHeaders(again.headers);
  });

  it('never lists a folder nor serves a file outside the site', async () => {
    for (const path of [
      '/assets',
      '/assets/',
      '/../secret.txt',
      '/%2e%2e/secret.txt',
      '/assets/..%2f..%2fsecret.txt',
      '/..%5csecret.txt',
      '/assets/%2e%2e/%2e%2e/secret.txt',
      '/%00',
      '/%E0%A4%A',
    ]) {
      const answer = await raw('GET', path);
      expect(answer.body.toString(), path).not.toContain('not for the web');
      expect(answer.headers['content-type'], path).toBe('text/html; charset=utf-8');
    }
  });

  it('leaves /api/ to the API: an unknown API path keeps its JSON 404, without the site headers', async () => {
    for (const path of ['/api/v1/no-such-thing', '/api/nothing', '/api']) {
      const answer = await raw('GET', path);
      expect(answer.status, path).toBe(404);
      expect(answer.headers['content-type'], path).toMatch(/^application\/json/);
      expect(JSON.parse(answer.body.toString()), path).toEqual(expect.objectContaining({}));
      expect(answer.headers['content-security-policy'], path).toBeUndefined();
    }
    const list = await raw('GET', '/api/v1/posts');
    expect(list.status).toBe(401);
    expect(JSON.parse(list.body.toString())).toEqual({ detail: 'Authentication credentials were not provided.' });
    const index = await raw('GET', '/api/v1');
    expect(index.status).toBe(200);
  });

  it('leaves other methods outside /api/ to the gateway (no site file is written or posted to)', async () => {
    const answer = await raw('POST', '/');
    expect(answer.status).toBe(404);
    expect(answer.headers['content-type']).toMatch(/^application\/json/);
  });
});

describe('the built site (web/dist, built by the global setup when stale)', () => {
  const built = readFileSync(fileURLToPath(new URL('../../web/dist/index.html', import.meta.url)), 'utf8');

  it('has nothing its Content-Security-Policy would refuse: no inline script or style, no handler', () => {
    expect(inlineCode(built)).toBeUndefined();
    expect(built).toMatch(/<script type="module" crossorigin src="\/assets\/index-[\w-]+\.js"><\/script>/);
    // The check itself finds each of them.
    expect(inlineCode('<script>alert(1)</script>')).toBe('an inline script');
    expect(inlineCode('<p style="color:red">')).toBe('a style attribute');
    expect(inlineCode('<body onload="x()">')).toBe('an event-handler attribute');
    expect(inlineCode('<style>p{}</style>')).toBe('a style element');
  });

  it("announces the RSS feed and a favicon (robots.txt is the page function's)", () => {
    expect(built).toContain('<link rel="alternate" type="application/rss+xml" title="Community Posts" href="/api/v1/feed" />');
    expect(built).toContain('<link rel="icon" href="/favicon.svg"');
  });
});
