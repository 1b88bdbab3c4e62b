import { createHash } from 'node:crypto';
import type { ApiResult } from './respond.ts';

// Conditional GET and HEAD (RFC 9110, section 13): If-None-Match with the weak comparison, else
// If-Modified-Since against Last-Modified. A 304 carries the validators and no body.

/** A strong entity tag of a representation's bytes. */
export function entityTag(body: string): string {
  return `"${createHash('sha256').update(body, 'utf8').digest('base64url').slice(0, 32)}"`;
}

/** An HTTP date (IMF-fixdate) of a time, to the second. */
export function httpDate(ms: number): string {
  return new Date(ms).toUTCString();
}

const ENTITY_TAG = /\s*(?:W\/)?("[^"]*")\s*(?:,|$)/y;

/**
 * Whether an If-None-Match value matches `etag`: `*`, or a list naming it, compared weakly (`W/"x"`
 * matches `"x"`). A malformed list matches nothing from its first malformed member on.
 */
export function noneMatch(header: string, etag: string): boolean {
  const value = header.trim();
  if (value === '*') return true;
  const opaque = etag.replace(/^W\//, '');
  ENTITY_TAG.lastIndex = 0;
  for (let match = ENTITY_TAG.exec(value); match; match = ENTITY_TAG.exec(value)) {
    if (match[1] === opaque) return true;
    if (ENTITY_TAG.lastIndex >= value.length) break;
  }
  return false;
}

const DAY = '(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)';
const LONG_DAY = '(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)';
const MONTH = '(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)';
const TIME = '\\d{2}:\\d{2}:\\d{2}';
/** The three forms of HTTP-date (RFC 9110, 5.6.7): IMF-fixdate, RFC 850, asctime. */
const HTTP_DATE = [
  new RegExp(`^${DAY}, \\d{2} ${MONTH} \\d{4} ${TIME} GMT$`),
  new RegExp(`^${LONG_DAY}, \\d{2}-${MONTH}-\\d{2} ${TIME} GMT$`),
  new RegExp(`^${DAY} ${MONTH} (?: \\d|\\d{2}) ${TIME} \\d{4}$`),
];

/** The time of an HTTP-date in milliseconds, or undefined when it is not one (then the header is ignored). */
export function parseHttpDate(value: string | undefined): number | undefined {
  const text = value?.trim();
  if (!text) return undefined;
  const form = HTTP_DATE.findIndex((pattern) => pattern.test(text));
  if (form < 0) return undefined;
  const ms = Date.parse(form === 2 ? `${text} GMT` : text);
  return Number.isFinite(ms) ? ms : undefined;
}

export interface Validators {
  etag: string;
  /** Milliseconds; sent to the second, as HTTP dates are. */
  lastModified: number;
  /**
   * The earliest If-Modified-Since (ms) that proves a copy current, when later than Last-Modified:
   * a resource that may still be settling (a change just made) answers such a date with a 200.
   */
  currentSince?: number;
}

/** Whether a GET or HEAD with these headers (lower-case names) gets 304 Not Modified. */
export function notModified(headers: Record<string, string | undefined>, { etag, lastModified, currentSince }: Validators): boolean {
  const ifNoneMatch = headers['if-none-match'];
  if (ifNoneMatch !== undefined) return noneMatch(ifNoneMatch, etag);
  const since = parseHttpDate(headers['if-modified-since']);
  return since !== undefined && since >= Math.max(wholeSecond(lastModified), currentSince ?? 0);
}

const wholeSecond = (ms: number) => Math.floor(ms / 1000) * 1000;

/**
 * The answer to a GET or HEAD of a representation with these validators: 304 with the validators
 * when the request's conditions say the client's copy is current, else `result` with them.
 */
export function conditionalResult(headers: Record<string, string | undefined>, validators: Validators, result: ApiResult): ApiResult {
  const validatorHeaders = { ETag: validators.etag, 'Last-Modified': httpDate(validators.lastModified) };
  if (notModified(headers, validators)) return { status: 304, headers: { ...validatorHeaders, ...pickCacheControl(result) } };
  return { ...result, headers: { ...result.headers, ...validatorHeaders } };
}

/** A 304 repeats the Cache-Control the 200 would carry (RFC 9110, 15.4.5). */
function pickCacheControl(result: ApiResult): Record<string, string> {
  const value = result.headers?.['Cache-Control'];
  return value ? { 'Cache-Control': value } : {};
}
