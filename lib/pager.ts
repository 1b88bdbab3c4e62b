import { InvalidPage } from './errors.ts';

// Page-number paging with DRF's rules, for every list: what a page request is, how many items a
// page by number skips, and the page made of what a list read (its items, whether another page
// follows and the cursor that continues after any of its items). A list reads its own way (an index
// page, favorites read as their posts, a search's ranking); the page they make is the same. The
// cursors are the list's own (lib/db/query.ts seals them); lib/http/paging.ts puts them in `Link`.

export const PAGE_SIZES = { users: 100, tags: 500, posts: 100 } as const;

/** Which page of a list: a page number and size, and the cursor of a followed `Link`. */
export interface PageRequest {
  page: number;
  pageSize: number;
  cursor?: string;
}

export interface Page<T> {
  items: T[];
  /** Cursor of the next page, when there is one. */
  next?: string;
  /**
   * The cursor of a page that starts right after `items[index]`: where a page cut short (by size,
   * lib/http/paging.ts) continues. `cursorAfter(items.length - 1)` is `next` when there is one.
   */
  cursorAfter(index: number): string;
}

/** A page of a list with what asked for it: the parameters a `Link` repeats and the page request. */
export interface ListedPage<T> {
  params: Record<string, string | undefined>;
  request: PageRequest;
  page: Page<T>;
  /** How many items the whole list holds, where a counter says it exactly (sent as X-Total-Count). */
  total?: number;
}

const POSITIVE_INTEGER = /^[1-9]\d{0,8}$/;

/** `page`, `page_size` and `cursor` as a page request; a page that is not a positive integer is an invalid page. */
export function parsePageRequest(params: Record<string, string | undefined>, maxPageSize: number): PageRequest {
  const { page: rawPage, page_size: rawSize, cursor } = params;
  let page = 1;
  if (rawPage !== undefined) {
    if (!POSITIVE_INTEGER.test(rawPage)) throw new InvalidPage();
    page = Number(rawPage);
  }
  // As DRF: a page_size that is not a positive integer falls back to the default (the maximum).
  let pageSize = maxPageSize;
  if (rawSize !== undefined && POSITIVE_INTEGER.test(rawSize)) pageSize = Math.min(Number(rawSize), maxPageSize);
  return { page, pageSize, ...(cursor ? { cursor } : {}) };
}

/** How many items of the list come before the page: the pages before it by number; none after a cursor, where the page starts. */
export function skippedBefore(request: PageRequest): number {
  return request.cursor ? 0 : (request.page - 1) * request.pageSize;
}

/**
 * The page of `entries` (the page's own, in order), each shown as `itemOf` makes it, with a next
 * cursor when `hasNext`. An empty page past the first (by number or cursor) is an invalid page.
 */
export function pageOf<S, T>(request: PageRequest, entries: readonly S[], hasNext: boolean, cursorOf: (entry: S) => string, itemOf: (entry: S) => T): Page<T> {
  if (entries.length === 0 && (request.page > 1 || request.cursor)) throw new InvalidPage();
  const cursorAfter = (index: number): string => {
    const entry = entries[index];
    if (entry === undefined) throw new RangeError(`no item ${index} in a page of ${entries.length}`);
    return cursorOf(entry);
  };
  return {
    items: entries.map(itemOf),
    ...(hasNext && entries.length > 0 ? { next: cursorAfter(entries.length - 1) } : {}),
    cursorAfter,
  };
}

/** The page of a list read from the page's start up to one entry past it (which tells that another page follows). */
export function pageOfRead<S, T>(request: PageRequest, read: readonly S[], cursorOf: (entry: S) => string, itemOf: (entry: S) => T): Page<T> {
  return pageOf(request, read.slice(0, request.pageSize), read.length > request.pageSize, cursorOf, itemOf);
}
