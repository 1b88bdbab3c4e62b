import { publicCacheSeconds } from '#lib/config.ts';
import { entityTag, noneMatch } from './conditional.ts';
import type { ApiResult } from './respond.ts';

// What caches may do with an answer (docs/api.md, "Caching and conditional requests"): every
// answer says it in Cache-Control, and a representation of content (a post, a list, a profile,
// a tag) carries an ETag of its body, which an If-None-Match can match to get a 304.

/** How the request was answered, as far as caches are concerned. */
export interface CacheContext {
  /** A public read answered without a token: a shared cache may keep it. */
  anonymous: boolean;
  /** The request was authenticated by a token: the answer is the caller's. */
  withToken: boolean;
  /** A GET or HEAD of a post, a list, a profile or a tag: validated by an ETag. */
  validated: boolean;
  /** The request's headers, lower-case names. */
  headers: Record<string, string | undefined>;
}

/** The Vary of every cacheable answer: it depends on who asks and from which origin (CORS). */
export const CACHE_VARY = 'Authorization, Origin';

/** Anonymous reads: revalidated by browsers at once, kept by shared caches for `seconds` (0: revalidated there too). */
export function publicCacheControl(seconds: number): string {
  return seconds > 0 ? `public, max-age=0, s-maxage=${seconds}` : 'public, no-cache';
}

/** A token's answers are the caller's alone, and revalidated on every use. */
export const PRIVATE_CACHE_CONTROL = 'private, no-cache';

/** Errors are kept by no cache: the next request may well succeed. */
export const ERROR_CACHE_CONTROL = 'no-store';

/**
 * `result` with its caching headers; a validated 200 whose ETag the request's If-None-Match
 * matches becomes a 304 with the 200's headers (ETag included) and no body, so no Content-Type.
 */
export function cachedResult(result: ApiResult, context: CacheContext): ApiResult {
  if (result.status >= 400) return { ...result, headers: { ...result.headers, 'Cache-Control': ERROR_CACHE_CONTROL } };
  const headers: Record<string, string> = { ...result.headers };
  if (context.anonymous) headers['Cache-Control'] = publicCacheControl(publicCacheSeconds());
  else if (context.withToken) headers['Cache-Control'] = PRIVATE_CACHE_CONTROL;
  if (!context.validated || result.status !== 200 || result.body === undefined || result.raw) return { ...result, headers };
  headers.Vary = CACHE_VARY;
  headers.ETag = entityTag(JSON.stringify(result.body));
  const ifNoneMatch = context.headers['if-none-match'];
  if (ifNoneMatch !== undefined && noneMatch(ifNoneMatch, headers.ETag)) return { status: 304, headers };
  return { ...result, headers };
}
