import { describe, expect, it, vi } from 'vitest';
import { InvalidPage } from '#lib/errors.ts';
import { errorResult } from '#lib/http/respond.ts';
import { decodeCursor, encodeCursor } from '#lib/db/cursor.ts';
import { nextPageUrl } from '#lib/http/paging.ts';
import { PAGE_SIZES, parsePageRequest } from '#lib/pager.ts';

const ATTRIBUTES = ['PK', 'SK', 'GSI1PK', 'GSI1SK'];
const PARTITION = { attribute: 'GSI1PK', value: 'TAGS' };
const KEY = { PK: 'TAG#hello', SK: 'TAG', GSI1PK: 'TAGS', GSI1SK: '2026-01-05T14:12:15.258987+00:00#hello' };

const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64url');

function expectInvalidPage(run: () => unknown): void {
  let thrown: unknown;
  try {
    run();
  } catch (error) {
    thrown = error;
  }
  expect(thrown).toBeInstanceOf(InvalidPage);
  expect(errorResult(thrown)).toMatchObject({ status: 404, body: { detail: 'Invalid page.' } });
}

describe('page sizes', () => {
  it('match the contract', () => {
    expect(PAGE_SIZES).toEqual({ users: 100, tags: 500, posts: 100 });
  });
});

describe('parsePageRequest', () => {
  it('defaults to page 1 at the maximum page size', () => {
    expect(parsePageRequest({}, 500)).toEqual({ page: 1, pageSize: 500 });
  });

  it('reads a positive page number', () => {
    expect(parsePageRequest({ page: '1' }, 100)).toEqual({ page: 1, pageSize: 100 });
    expect(parsePageRequest({ page: '37' }, 100)).toEqual({ page: 37, pageSize: 100 });
  });

  it.each(['0', '-1', '1.5', 'abc', '', '1e3', '0x10', '9999999999', 'last'])('rejects page %j as an invalid page', (page) => {
    expectInvalidPage(() => parsePageRequest({ page }, 100));
  });

  it('caps page_size at the maximum', () => {
    expect(parsePageRequest({ page_size: '10' }, 100).pageSize).toBe(10);
    expect(parsePageRequest({ page_size: '100' }, 100).pageSize).toBe(100);
    expect(parsePageRequest({ page_size: '101' }, 100).pageSize).toBe(100);
    expect(parsePageRequest({ page_size: '100000' }, 500).pageSize).toBe(500);
  });

  it.each(['0', '-5', 'ten', '', '2.5'])('falls back to the maximum for page_size %j', (size) => {
    expect(parsePageRequest({ page_size: size }, 500)).toEqual({ page: 1, pageSize: 500 });
  });

  it('passes a cursor on and ignores an empty one', () => {
    expect(parsePageRequest({ page: '2', cursor: 'abc' }, 100)).toEqual({ page: 2, pageSize: 100, cursor: 'abc' });
    expect(parsePageRequest({ cursor: '' }, 100)).toEqual({ page: 1, pageSize: 100 });
  });
});

describe('cursors', () => {
  it('round-trip a key', () => {
    const cursor = encodeCursor(KEY);
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeCursor(cursor, ATTRIBUTES, PARTITION)).toEqual(KEY);
  });

  it('round-trip a key with non-ASCII values', () => {
    const key = { ...KEY, PK: 'TAG#ünïcode-🎉' };
    expect(decodeCursor(encodeCursor(key), ATTRIBUTES, PARTITION)).toEqual(key);
  });

  it('accept keys whose attributes are in any order', () => {
    const reordered = { GSI1SK: KEY.GSI1SK, SK: KEY.SK, GSI1PK: KEY.GSI1PK, PK: KEY.PK };
    expect(decodeCursor(encodeCursor(reordered), ATTRIBUTES, PARTITION)).toEqual(KEY);
  });

  it('reject a key from another partition', () => {
    expectInvalidPage(() => decodeCursor(encodeCursor({ ...KEY, GSI1PK: 'USERS' }), ATTRIBUTES, PARTITION));
    expectInvalidPage(() => decodeCursor(encodeCursor({ ...KEY, GSI1PK: 'POSTS' }), ATTRIBUTES, { attribute: 'GSI1PK', value: 'FEATURED' }));
  });

  it('reject missing, extra and renamed attributes', () => {
    const missing: Record<string, string> = { ...KEY };
    delete missing.SK;
    expectInvalidPage(() => decodeCursor(encodeCursor(missing), ATTRIBUTES, PARTITION));
    expectInvalidPage(() => decodeCursor(encodeCursor({ ...KEY, extra: 'x' }), ATTRIBUTES, PARTITION));
    const { GSI1SK, ...rest } = KEY;
    expectInvalidPage(() => decodeCursor(encodeCursor({ ...rest, OtherSK: GSI1SK }), ATTRIBUTES, PARTITION));
    expectInvalidPage(() => decodeCursor(encodeCursor({}), ATTRIBUTES, PARTITION));
  });

  it('reject values that are not short non-empty strings', () => {
    for (const value of [1, true, null, { S: 'x' }, ['x'], '', 'x'.repeat(1025)]) {
      const forged = b64(JSON.stringify({ ...KEY, SK: value }));
      expectInvalidPage(() => decodeCursor(forged, ATTRIBUTES, PARTITION));
    }
  });

  it('reject cursors that are not a JSON object', () => {
    for (const text of ['', 'not json', '{"PK":', '[]', JSON.stringify(Object.values(KEY)), '"TAG#hello"', '42', 'null', 'true']) {
      expectInvalidPage(() => decodeCursor(b64(text), ATTRIBUTES, PARTITION));
    }
  });

  it('reject garbage that is not base64url', () => {
    for (const cursor of ['%%%', '!!!!', '....', '\u0000', '🎉']) {
      expectInvalidPage(() => decodeCursor(cursor, ATTRIBUTES, PARTITION));
    }
  });

  it('reveal no key: neither the text nor its base64 decoding holds a key value', () => {
    const cursor = encodeCursor(KEY);
    const decoded = Buffer.from(cursor, 'base64url').toString('latin1');
    for (const value of Object.values(KEY)) {
      expect(cursor).not.toContain(value);
      expect(decoded).not.toContain(value);
    }
    // The same page of the same list: the same cursor (a HEAD's Link is its GET's); another list: another.
    expect(encodeCursor(KEY)).toBe(cursor);
    expect(encodeCursor(KEY, 'another list')).not.toBe(cursor);
    expect(encodeCursor({ ...KEY, GSI1SK: `${KEY.GSI1SK}x` }).slice(0, 16)).not.toBe(cursor.slice(0, 16));
  });

  it('reject a cursor with any one byte changed, cut short or extended', () => {
    const bytes = Buffer.from(encodeCursor(KEY), 'base64url');
    for (let at = 0; at < bytes.length; at++) {
      const edited = Buffer.from(bytes);
      edited[at] = edited[at]! ^ 0x01;
      expectInvalidPage(() => decodeCursor(edited.toString('base64url'), ATTRIBUTES, PARTITION));
    }
    expectInvalidPage(() => decodeCursor(bytes.subarray(0, bytes.length - 1).toString('base64url'), ATTRIBUTES, PARTITION));
    expectInvalidPage(() => decodeCursor(Buffer.concat([bytes, Buffer.from([0])]).toString('base64url'), ATTRIBUTES, PARTITION));
  });

  it('open only for the list they were made for', () => {
    const cursor = encodeCursor(KEY, 'list A');
    expect(decodeCursor(cursor, ATTRIBUTES, PARTITION, 'list A')).toEqual(KEY);
    expectInvalidPage(() => decodeCursor(cursor, ATTRIBUTES, PARTITION, 'list B'));
    expectInvalidPage(() => decodeCursor(cursor, ATTRIBUTES, PARTITION));
  });

  it('made with another secret are invalid', () => {
    const cursor = encodeCursor(KEY);
    vi.stubEnv('CURSOR_SECRET', 'another secret of at least thirty-two characters');
    try {
      expectInvalidPage(() => decodeCursor(cursor, ATTRIBUTES, PARTITION));
      expect(decodeCursor(encodeCursor(KEY), ATTRIBUTES, PARTITION)).toEqual(KEY);
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it('need a secret in Lambda: without one, or with a short one, nothing is sealed', () => {
    vi.stubEnv('AWS_LAMBDA_FUNCTION_NAME', 'CommunityPosts-PostsList');
    vi.stubEnv('CURSOR_SECRET', '');
    try {
      expect(() => encodeCursor(KEY)).toThrow('CURSOR_SECRET is not set.');
      vi.stubEnv('CURSOR_SECRET', 'too short');
      expect(() => encodeCursor(KEY)).toThrow('at least 32 characters');
    } finally {
      vi.unstubAllEnvs();
    }
  });
});

/** The parts of an HTTP API event a link is made from. */
const eventFor = (headers: Record<string, string>, domainName: string) =>
  ({ headers, rawPath: '/api/v1/tags', requestContext: { domainName } }) as unknown as Parameters<typeof nextPageUrl>[0];

describe('nextPageUrl', () => {
  it('keeps the other parameters, bumps the page and carries the cursor, on the host API Gateway reports', () => {
    const url = new URL(
      nextPageUrl(
        eventFor({ host: 'api.example.com', 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https' }, 'api.example.com'),
        { q: 'café & co', page: '2', cursor: 'old', page_size: '10', sort: undefined },
        2,
        'CURSOR',
      ),
    );
    expect(url.origin).toBe('https://api.example.com');
    expect(url.pathname).toBe('/api/v1/tags');
    expect(url.searchParams.get('q')).toBe('café & co');
    expect(url.searchParams.get('page_size')).toBe('10');
    expect(url.searchParams.get('page')).toBe('3');
    expect(url.searchParams.getAll('cursor')).toEqual(['CURSOR']);
    expect(url.searchParams.has('sort')).toBe(false);
  });

  it("names the viewer's host the distribution passes on (x-viewer-host), a valid host only, never X-Forwarded-Host", () => {
    const through = (headers: Record<string, string>) =>
      new URL(nextPageUrl(eventFor({ 'x-forwarded-proto': 'https', ...headers }, 'abc.execute-api.eu-west-1.amazonaws.com'), {}, 1, 'C')).host;
    expect(through({ 'x-viewer-host': 'd111111abcdef8.cloudfront.net', 'x-forwarded-host': 'evil.example' })).toBe('d111111abcdef8.cloudfront.net');
    expect(through({ 'x-viewer-host': 'site.example:8443' })).toBe('site.example:8443');
    for (const value of ['evil.example/x', 'a b', '', 'evil.example@x', 'x:y'])
      expect(through({ 'x-viewer-host': value }), value).toBe('abc.execute-api.eu-west-1.amazonaws.com');
    expect(through({ 'x-forwarded-host': 'evil.example' })).toBe('abc.execute-api.eu-west-1.amazonaws.com');
  });

  it('never names a host from a client header, and is http only when API Gateway says so', () => {
    const url = nextPageUrl(eventFor({ host: 'evil.example', 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'http' }, '127.0.0.1:3000'), {}, 1, 'C');
    expect(new URL(url).origin).toBe('http://127.0.0.1:3000');
    expect(new URL(nextPageUrl(eventFor({ 'x-forwarded-proto': 'gopher' }, 'api.example.com'), {}, 1, 'C')).origin).toBe('https://api.example.com');
  });
});
