import { afterEach, describe, expect, it, vi } from 'vitest';
import { publicCacheSeconds, publicReads } from '#lib/config.ts';
import { cachedResult, publicCacheControl, type CacheContext } from '#lib/http/caching.ts';
import { entityTag } from '#lib/http/conditional.ts';

// What caches are told (lib/http/caching.ts), and the settings it reads.

const context = (over: Partial<CacheContext> = {}): CacheContext => ({ anonymous: false, withToken: true, validated: true, headers: {}, ...over });

afterEach(() => vi.unstubAllEnvs());

describe('settings', () => {
  it('public reads are on for the word true only, in any case', () => {
    for (const [value, on] of [
      ['true', true],
      [' TRUE ', true],
      ['false', false],
      ['1', false],
      ['yes', false],
      ['', false],
    ] as const) {
      vi.stubEnv('PUBLIC_READS', value);
      expect(publicReads(), value).toBe(on);
    }
  });

  it('the shared-cache time is a whole number of seconds, 0 included, else 10', () => {
    for (const [value, seconds] of [
      ['0', 0],
      ['300', 300],
      ['', 10],
      ['-1', 10],
      ['1.5', 10],
      ['ten', 10],
    ] as const) {
      vi.stubEnv('PUBLIC_CACHE_SECONDS', value);
      expect(publicCacheSeconds(), value).toBe(seconds);
    }
  });
});

describe('cachedResult', () => {
  const body = [{ slug: 'a' }];
  const etag = entityTag(JSON.stringify(body));

  it('public for an anonymous read, with s-maxage; public, no-cache at 0', () => {
    expect(publicCacheControl(10)).toBe('public, max-age=0, s-maxage=10');
    expect(publicCacheControl(0)).toBe('public, no-cache');
    vi.stubEnv('PUBLIC_CACHE_SECONDS', '45');
    expect(cachedResult({ status: 200, body }, context({ anonymous: true, withToken: false })).headers).toEqual({
      'Cache-Control': 'public, max-age=0, s-maxage=45',
      Vary: 'Authorization, Origin',
      ETag: etag,
    });
  });

  it('private for a token, no-store for an error, and an ETag only on a validated 200', () => {
    expect(cachedResult({ status: 201, body }, context({ validated: false })).headers).toEqual({ 'Cache-Control': 'private, no-cache' });
    expect(cachedResult({ status: 404, body: { detail: 'Not found.' } }, context()).headers).toEqual({ 'Cache-Control': 'no-store' });
    expect(cachedResult({ status: 401, body: {}, headers: { 'WWW-Authenticate': 'Token' } }, context({ withToken: false })).headers).toEqual({
      'WWW-Authenticate': 'Token',
      'Cache-Control': 'no-store',
    });
    // The feed and the documentation keep their own Cache-Control.
    expect(cachedResult({ status: 200, body, headers: { 'Cache-Control': 'no-cache' } }, context({ withToken: false, validated: false })).headers).toEqual({
      'Cache-Control': 'no-cache',
    });
  });

  it('answers a matching If-None-Match 304 with the headers of the 200 and no body', () => {
    const result = { status: 200, body, headers: { Link: '<x>; rel="next"' } };
    expect(cachedResult(result, context({ headers: { 'if-none-match': `W/${etag}` } }))).toEqual({
      status: 304,
      headers: { Link: '<x>; rel="next"', 'Cache-Control': 'private, no-cache', Vary: 'Authorization, Origin', ETag: etag },
    });
    expect(cachedResult(result, context({ headers: { 'if-none-match': '"other"' } })).status).toBe(200);
    expect(cachedResult(result, context({ validated: false, headers: { 'if-none-match': '*' } })).status).toBe(200);
  });
});
