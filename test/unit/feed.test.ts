import { describe, expect, it } from 'vitest';
import { feedRemovalWrites } from '#lib/posts/feed-removals.ts';
import { element, xmlText } from '#lib/feed/xml.ts';
import { conditionalResult, entityTag, noneMatch, notModified, parseHttpDate } from '#lib/http/conditional.ts';
import { postRecord as post, useTableName } from './records.ts';

// The feed's pure parts: XML text, the conditional-request rules of RFC 9110, and which changes of
// a post record a removal from the feeds.

useTableName('unit-feed');

describe('XML text', () => {
  it('escapes markup and keeps every character XML 1.0 allows, emoji included', () => {
    expect(xmlText(`<a href="x">Tom & 'Jerry'</a> 🎉 é\t\n`)).toBe('&lt;a href=&quot;x&quot;&gt;Tom &amp; &apos;Jerry&apos;&lt;/a&gt; 🎉 é\t\n');
    expect(xmlText('a\rb')).toBe('a&#13;b');
    expect(element('dc:creator', 'a<b', { 'xmlns:dc': 'http://purl.org/dc/elements/1.1/' })).toBe(
      '<dc:creator xmlns:dc="http://purl.org/dc/elements/1.1/">a&lt;b</dc:creator>',
    );
  });

  it('drops what XML 1.0 forbids: control characters, lone surrogates, U+FFFE and U+FFFF', () => {
    expect(xmlText('a\u0000b\u0001c\u0008d\u000Be\u000Cf\u001Fg\uFFFEh\uFFFFi')).toBe('abcdefghi');
    expect(xmlText('x\uD800y\uDC00z')).toBe('xyz');
    expect(xmlText('\uD83D\uDE00')).toBe('😀');
  });
});

describe('conditional requests', () => {
  const etag = entityTag('<rss/>');
  const lastModified = Date.UTC(2026, 0, 5, 14, 12, 15, 258);

  it('If-None-Match matches weakly, in lists and with *', () => {
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{32}"$/);
    for (const header of [etag, `W/${etag}`, ` "a" , ${etag}`, `W/"a",W/${etag}`, '*', ' * ']) expect(noneMatch(header, etag), header).toBe(true);
    for (const header of ['"a"', etag.slice(1, -1), '', 'W/', `"a" garbage, ${etag}`, `${etag.slice(0, -1)}x"`])
      expect(noneMatch(header, etag), header).toBe(false);
  });

  it('reads the three HTTP date forms and nothing else', () => {
    const second = Date.UTC(1994, 10, 6, 8, 49, 37);
    expect(parseHttpDate('Sun, 06 Nov 1994 08:49:37 GMT')).toBe(second);
    expect(parseHttpDate('Sunday, 06-Nov-94 08:49:37 GMT')).toBe(second);
    expect(parseHttpDate('Sun Nov  6 08:49:37 1994')).toBe(second);
    for (const value of [undefined, '', 'yesterday', '1994-11-06T08:49:37Z', '784111777', 'Sun, 06 Nov 1994 08:49:37 +0000', 'Sun, 99 Nov 1994 08:49:37 GMT']) {
      expect(parseHttpDate(value), String(value)).toBeUndefined();
    }
  });

  it('If-Modified-Since compares whole seconds; If-None-Match decides when both are sent', () => {
    const validators = { etag, lastModified };
    const at = (ms: number) => new Date(ms).toUTCString();
    expect(notModified({ 'if-modified-since': at(lastModified) }, validators)).toBe(true);
    expect(notModified({ 'if-modified-since': at(lastModified + 5000) }, validators)).toBe(true);
    expect(notModified({ 'if-modified-since': at(lastModified - 1000) }, validators)).toBe(false);
    expect(notModified({ 'if-modified-since': 'not a date' }, validators)).toBe(false);
    expect(notModified({}, validators)).toBe(false);
    expect(notModified({ 'if-none-match': '"other"', 'if-modified-since': at(lastModified) }, validators)).toBe(false);
    expect(notModified({ 'if-none-match': etag, 'if-modified-since': at(0) }, validators)).toBe(true);
    // A resource still settling: its current copy is proven only by a date from `currentSince` on.
    const settling = { etag, lastModified, currentSince: Date.UTC(2026, 0, 5, 14, 12, 17) };
    expect(notModified({ 'if-modified-since': at(lastModified) }, settling)).toBe(false);
    expect(notModified({ 'if-modified-since': at(lastModified + 1000) }, settling)).toBe(false);
    expect(notModified({ 'if-modified-since': at(lastModified + 2000) }, settling)).toBe(true);
  });

  it('answers 304 with the validators and Cache-Control and no body, else the result with the validators', () => {
    const result = { status: 200, headers: { 'Content-Type': 'application/rss+xml; charset=utf-8', 'Cache-Control': 'no-cache' }, raw: { data: '<rss/>' } };
    const validators = { etag, lastModified };
    expect(conditionalResult({ 'if-none-match': etag }, validators, result)).toEqual({
      status: 304,
      headers: { ETag: etag, 'Last-Modified': 'Mon, 05 Jan 2026 14:12:15 GMT', 'Cache-Control': 'no-cache' },
    });
    expect(conditionalResult({}, validators, result)).toEqual({
      ...result,
      headers: { ...result.headers, ETag: etag, 'Last-Modified': 'Mon, 05 Jan 2026 14:12:15 GMT' },
    });
  });
});

describe('removals from the feeds', () => {
  const published = post({ publish: true, tags: ['Go', 'Rust'], tag_slugs: ['go', 'rust'] });
  const removals = (before: ReturnType<typeof post> | null, after: ReturnType<typeof post> | null) =>
    feedRemovalWrites(before, after).map(({ write }) => write.Put?.Item?.PK);

  it('is written when a published post is deleted, unpublished or loses a tag', () => {
    expect(removals(published, null)).toEqual(['FEED#REMOVALS']);
    expect(removals(published, { ...published, publish: false })).toEqual(['FEED#REMOVALS']);
    expect(removals(published, { ...published, tags: ['Go'], tag_slugs: ['go'] })).toEqual(['FEED#REMOVALS']);
  });

  it('is not written for a draft, a create, a publish, an edit, a rename or an added tag', () => {
    const draft = { ...published, publish: false };
    expect(removals(draft, null)).toEqual([]);
    expect(removals(null, published)).toEqual([]);
    expect(removals(draft, published)).toEqual([]);
    expect(removals(published, { ...published, title: 'New', slug: 'new', description: 'changed' })).toEqual([]);
    expect(removals(published, { ...published, tags: ['Go', 'Rust', 'Zig'], tag_slugs: ['go', 'rust', 'zig'] })).toEqual([]);
  });
});
