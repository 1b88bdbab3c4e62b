import { InvalidPage } from './errors.ts';

// Page-number paging with DRF's rules, plus an opaque cursor carried by the `Link: rel="next"`
// URL so that following links costs the same on every page.

export const PAGE_SIZES = { users: 100, tags: 500, posts: 100 } as const;

export interface PageRequest {
  page: number;
  pageSize: number;
  cursor?: string;
}

const POSITIVE_INTEGER = /^[1-9]\d{0,8}$/;

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

export function encodeCursor(key: Record<string, string>): string {
  return Buffer.from(JSON.stringify(key), 'utf8').toString('base64url');
}

/**
 * Decodes a cursor and checks it is a key of the expected shape (exactly `attributes`, all short
 * strings, in the expected partition). A forged or damaged cursor is an invalid page, never a
 * malformed request to DynamoDB.
 */
export function decodeCursor(
  cursor: string,
  attributes: string[],
  partition: { attribute: string; value: string },
): Record<string, string> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw new InvalidPage();
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new InvalidPage();
  const entries = Object.entries(parsed);
  const valid =
    entries.length === attributes.length &&
    entries.every(([name, value]) => attributes.includes(name) && typeof value === 'string' && value.length > 0 && Buffer.byteLength(value, 'utf8') <= 1024) &&
    (parsed as Record<string, string>)[partition.attribute] === partition.value;
  if (!valid) throw new InvalidPage();
  return parsed as Record<string, string>;
}

export interface LinkSource {
  headers: Record<string, string | undefined>;
  rawPath: string;
}

/** The absolute URL of the next page: the same path and parameters, the next page and cursor. */
export function nextPageUrl(source: LinkSource, params: Record<string, string | undefined>, page: number, cursor: string): string {
  const host = source.headers['x-forwarded-host'] ?? source.headers.host ?? 'localhost';
  const proto = source.headers['x-forwarded-proto'] ?? 'https';
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    if (value !== undefined && name !== 'page' && name !== 'cursor') query.set(name, value);
  }
  query.set('page', String(page + 1));
  query.set('cursor', cursor);
  return `${proto}://${host}${source.rawPath}?${query.toString()}`;
}
