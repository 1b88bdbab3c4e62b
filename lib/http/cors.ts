import { corsAllowedOrigins } from '#lib/config.ts';

export const CORS_ALLOWED_METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'OPTIONS'];
// If-None-Match: a page revalidates what it holds (304); ETag and X-Total-Count: what it reads back.
export const CORS_ALLOWED_HEADERS = ['Authorization', 'Content-Type', 'If-None-Match'];
export const CORS_EXPOSED_HEADERS = ['Link', 'ETag', 'X-Total-Count', 'WWW-Authenticate', 'Retry-After'];
export const CORS_MAX_AGE_SECONDS = 86400;

/** The HTTP API's CORS configuration (the stack's `corsPreflight`; the local gateway applies it). */
export interface CorsConfiguration {
  allowOrigins: string[];
  allowMethods: string[];
  allowHeaders: string[];
  exposeHeaders: string[];
  maxAge: number;
}

export function corsConfiguration(allowOrigins: string[]): CorsConfiguration {
  return {
    allowOrigins,
    allowMethods: CORS_ALLOWED_METHODS,
    allowHeaders: CORS_ALLOWED_HEADERS,
    exposeHeaders: CORS_EXPOSED_HEADERS,
    maxAge: CORS_MAX_AGE_SECONDS,
  };
}

/**
 * The Access-Control-Allow-Origin value for a request's Origin under these allowed origins (the
 * functions': CORS_ALLOWED_ORIGINS; the gateway's: its CORS settings), or undefined when not allowed.
 */
export function allowedOrigin(origin: string | undefined, allowed: readonly string[] = corsAllowedOrigins()): string | undefined {
  if (allowed.includes('*')) return '*';
  return origin && allowed.includes(origin) ? origin : undefined;
}

/** CORS headers for an actual (non-preflight) response. */
export function corsHeaders(origin: string | undefined): Record<string, string> {
  const value = allowedOrigin(origin);
  if (!value) return {};
  return {
    'Access-Control-Allow-Origin': value,
    'Access-Control-Expose-Headers': CORS_EXPOSED_HEADERS.join(', '),
    ...(value === '*' ? {} : { Vary: 'Origin' }),
  };
}
