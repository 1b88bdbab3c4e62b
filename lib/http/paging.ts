import type { ListedPage } from '#lib/pager.ts';
import type { ApiRequest } from './endpoint.ts';
import { PAGE_BODY_BUDGET_BYTES } from './limits.ts';
import { requestBase } from './request.ts';
import { ok, type ApiResult } from './respond.ts';

// Lists over HTTP: the `Link: rel="next"` URL that carries the cursor of the next page (the pages
// themselves are lib/pager.ts's), and pages cut to what a Lambda response can hold.

/** The absolute URL of the next page: the same path and parameters, the next page and cursor, on the request's own host (requestBase). */
export function nextPageUrl(event: ApiRequest['event'], params: Record<string, string | undefined>, page: number, cursor: string): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    if (value !== undefined && name !== 'page' && name !== 'cursor') query.set(name, value);
  }
  query.set('page', String(page + 1));
  query.set('cursor', cursor);
  return `${requestBase(event)}${event.rawPath}?${query.toString()}`;
}

/**
 * The bytes a JSON text takes once it is the `body` string of Lambda's result object: its UTF-8
 * bytes after JSON-escaping it once more (every `"` and `\` of the text doubles; non-ASCII stays
 * as it is), without the two quotes around it. Always at least the text's own UTF-8 bytes.
 */
export function escapedSize(json: string): number {
  return Buffer.byteLength(JSON.stringify(json), 'utf8') - 2;
}

export interface FittedPage {
  /** The shaped items that fit, in order: always at least one when there was one. */
  body: unknown[];
  /** True when items were left out to stay within the budget. */
  cut: boolean;
}

/**
 * The longest run of items, from the first, whose JSON array (brackets and commas included) stays
 * within `budget` bytes as measured by `escapedSize`. The first item is taken whatever its size, so
 * a page is never empty (no stored item comes near the budget: DynamoDB items are at most 400 KB).
 * Items are shaped one by one and shaping stops at the first one that does not fit.
 */
export function fitPage<T>(items: readonly T[], shape: (item: T) => unknown, budget: number = PAGE_BODY_BUDGET_BYTES): FittedPage {
  const body: unknown[] = [];
  let size = 2; // "[" and "]"
  for (const item of items) {
    const shaped = shape(item);
    const added = escapedSize(JSON.stringify(shaped)) + (body.length > 0 ? 1 : 0); // "," before all but the first
    if (body.length > 0 && size + added > budget) return { body, cut: true };
    body.push(shaped);
    size += added;
  }
  return { body, cut: false };
}

/** The header that tells how many items the whole list holds. */
export const TOTAL_HEADER = 'X-Total-Count';

/**
 * A page as a bare JSON array, with `Link: <next>; rel="next"` when more follow and the list's
 * X-Total-Count when it has a total. A page whose items
 * would make the response too big for Lambda (limits.ts) is cut short, and its Link then
 * continues right after the last item it holds.
 */
export function pagedResult<T>(request: ApiRequest, listed: ListedPage<T>, shape: (item: T) => unknown): ApiResult {
  const { body, cut } = fitPage(listed.page.items, shape);
  const next = cut ? listed.page.cursorAfter(body.length - 1) : listed.page.next;
  const headers: Record<string, string> = listed.total === undefined ? {} : { [TOTAL_HEADER]: String(listed.total) };
  if (next) headers.Link = `<${nextPageUrl(request.event, listed.params, listed.request.page, next)}>; rel="next"`;
  return ok(body, Object.keys(headers).length > 0 ? headers : undefined);
}
