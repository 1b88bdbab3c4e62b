import { describe, expect, it } from 'vitest';
import type { Item } from '#lib/db/batch.ts';
import type { Page } from '#lib/pager.ts';
import type { ApiRequest } from '#lib/http/endpoint.ts';
import { LAMBDA_RESPONSE_LIMIT_BYTES, PAGE_BODY_BUDGET_BYTES } from '#lib/http/limits.ts';
import { escapedSize, fitPage, pagedResult } from '#lib/http/paging.ts';
import { toHttpResponse } from '#lib/http/respond.ts';

// The size cut of list pages (lib/http/paging.ts) on synthetic items: no database involved.

interface Synthetic {
  id: number;
  text: string;
}

const items = (count: number, text: (i: number) => string): Synthetic[] => Array.from({ length: count }, (_, id) => ({ id, text: text(id) }));
const identity = (item: Synthetic) => item;
/** What the body costs inside Lambda's result object. */
const bodyCost = (body: unknown[]) => escapedSize(JSON.stringify(body));

describe('escapedSize', () => {
  it('counts UTF-8 bytes, with every " and \\ doubled', () => {
    expect(escapedSize('abc')).toBe(3);
    expect(escapedSize('€')).toBe(3);
    expect(escapedSize('😀')).toBe(4);
    expect(escapedSize('"')).toBe(2);
    expect(escapedSize('\\')).toBe(2);
    expect(escapedSize(JSON.stringify({ a: 'say "hi"' }))).toBe(JSON.stringify(JSON.stringify({ a: 'say "hi"' })).length - 2);
  });
});

describe('fitPage', () => {
  it('keeps every item when they fit', () => {
    const all = items(5, () => 'x'.repeat(10));
    expect(fitPage(all, identity, 10_000)).toEqual({ body: all, cut: false });
  });

  it('takes items in order while the array stays within the budget, and no more', () => {
    const all = items(50, (i) => 'é'.repeat(100 + i * 7));
    for (const budget of [300, 1_000, 2_345, 5_000, 10_000]) {
      const { body, cut } = fitPage(all, identity, budget);
      expect(cut).toBe(true);
      expect(body).toEqual(all.slice(0, body.length));
      expect(bodyCost(body)).toBeLessThanOrEqual(budget);
      expect(bodyCost(all.slice(0, body.length + 1))).toBeGreaterThan(budget);
    }
  });

  it('counts the bytes escaping adds: a body of quotes is cut at half the items of plain text', () => {
    const plain = items(20, () => 'a'.repeat(1_000));
    const quotes = items(20, () => '"'.repeat(1_000));
    const plainFit = fitPage(plain, identity, 10_000);
    const quotesFit = fitPage(quotes, identity, 10_000);
    expect(plainFit.body).toHaveLength(9);
    // Each '"' is 2 bytes in the body and 4 once the body is escaped into the result object.
    expect(quotesFit.body).toHaveLength(2);
    expect(bodyCost(quotesFit.body)).toBeLessThanOrEqual(10_000);
  });

  it('always keeps the first item, however large', () => {
    const all = items(3, () => 'z'.repeat(5_000));
    expect(fitPage(all, identity, 100)).toEqual({ body: [all[0]], cut: true });
    expect(fitPage(all.slice(0, 1), identity, 100)).toEqual({ body: [all[0]], cut: false });
  });

  it('of nothing is an empty page', () => {
    expect(fitPage([], identity, 100)).toEqual({ body: [], cut: false });
  });

  it('shapes items only until the cut', () => {
    const shaped: number[] = [];
    fitPage(
      items(100, () => 'q'.repeat(100)),
      (item) => (shaped.push(item.id), item),
      1_000,
    );
    expect(shaped.length).toBeLessThan(12);
  });
});

describe('pagedResult', () => {
  const request = { event: { headers: { host: 'api.test' }, rawPath: '/api/v1/posts', requestContext: { domainName: 'api.test' } } } as unknown as ApiRequest;
  const pageRequest = { page: 1, pageSize: 100 };

  /** A page of these items, as lib/db/query.ts builds it, with readable cursors. */
  function pageOf(all: Synthetic[], hasNext: boolean): Page<Item> {
    const cursorAfter = (index: number) => `after-${all[index]!.id}`;
    return { items: all as unknown as Item[], ...(hasNext ? { next: cursorAfter(all.length - 1) } : {}), cursorAfter };
  }
  const shape = (item: Item) => item;
  const link = (cursor: string) => `<https://api.test/api/v1/posts?page_size=100&page=2&cursor=${cursor}>; rel="next"`;

  it('a page that fits keeps its Link (or its lack of one)', () => {
    const all = items(10, () => 'small');
    expect(pagedResult(request, { params: { page_size: '100' }, request: pageRequest, page: pageOf(all, true) }, shape)).toEqual({
      status: 200,
      body: all,
      headers: { Link: link('after-9') },
    });
    expect(pagedResult(request, { params: { page_size: '100' }, request: pageRequest, page: pageOf(all, false) }, shape)).toEqual({ status: 200, body: all });
  });

  it('a page too big for Lambda is cut, and its Link continues after the last item it holds', () => {
    // 100 items of 150,000 bytes with 50,000 quotes: 15 MB of body, 20 MB once escaped.
    const all = items(100, (i) => `${i}${'€'.repeat(33_000)}${'"'.repeat(50_000)}`);
    for (const hasNext of [true, false]) {
      const result = pagedResult(request, { params: { page_size: '100' }, request: pageRequest, page: pageOf(all, hasNext) }, shape);
      const body = result.body as Synthetic[];
      expect(body.length).toBeGreaterThan(0);
      expect(body.length).toBeLessThan(100);
      expect(body).toEqual(all.slice(0, body.length));
      expect(result.headers).toEqual({ Link: link(`after-${body.length - 1}`) });
      expect(bodyCost(body)).toBeLessThanOrEqual(PAGE_BODY_BUDGET_BYTES);
      // The whole result object Lambda would return, as the Node.js runtime serializes it.
      const envelope = JSON.stringify(toHttpResponse(result, 'https://app.example.com'));
      expect(Buffer.byteLength(envelope, 'utf8')).toBeLessThan(LAMBDA_RESPONSE_LIMIT_BYTES);
    }
  });

  it('the budget leaves room for the rest of the result', () => {
    expect(PAGE_BODY_BUDGET_BYTES).toBeLessThanOrEqual(LAMBDA_RESPONSE_LIMIT_BYTES - 512 * 1024);
  });
});
