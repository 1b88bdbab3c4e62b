import type { Page } from '../db/query.ts';
import type { Item } from '../db/batch.ts';
import { nextPageUrl, type PageRequest } from '../pagination.ts';
import type { ApiRequest } from './endpoint.ts';
import { ok, type ApiResult } from './respond.ts';

/** A page as a bare JSON array, with `Link: <next>; rel="next"` when more follow. */
export function pagedResult(
  request: ApiRequest,
  params: Record<string, string | undefined>,
  pageRequest: PageRequest,
  page: Page,
  shape: (item: Item) => unknown,
): ApiResult {
  const body = page.items.map(shape);
  if (!page.next) return ok(body);
  const url = nextPageUrl({ headers: request.event.headers ?? {}, rawPath: request.event.rawPath }, params, pageRequest.page, page.next);
  return ok(body, { Link: `<${url}>; rel="next"` });
}
