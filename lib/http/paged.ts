import type { Page } from '../db/query.ts';
import type { Item } from '../db/batch.ts';
import { nextPageUrl, type PageRequest } from '../pagination.ts';
import type { ApiRequest } from './endpoint.ts';
import { PAGE_BODY_BUDGET_BYTES } from './limits.ts';
import { ok, type ApiResult } from './respond.ts';

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

/**
 * A page as a bare JSON array, with `Link: <next>; rel="next"` when more follow. A page whose items
 * would make the response too big for Lambda (lib/http/limits.ts) is cut short, and its Link then
 * continues right after the last item it holds.
 */
export function pagedResult(
  request: ApiRequest,
  params: Record<string, string | undefined>,
  pageRequest: PageRequest,
  page: Page,
  shape: (item: Item) => unknown,
): ApiResult {
  const { body, cut } = fitPage(page.items, shape);
  const next = cut ? page.cursorAfter(body.length - 1) : page.next;
  if (!next) return ok(body);
  const url = nextPageUrl({ headers: request.event.headers ?? {}, rawPath: request.event.rawPath }, params, pageRequest.page, next);
  return ok(body, { Link: `<${url}>; rel="next"` });
}
