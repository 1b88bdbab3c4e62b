import {
  AuthenticationFailed,
  Conflict,
  MethodNotAllowed,
  NotAuthenticated,
  NotFound,
  ParseError,
  PayloadTooLarge,
  PermissionDenied,
  ServiceError,
  ServiceUnavailable,
  Throttled,
  UnsupportedMediaType,
  ValidationError,
} from '#lib/errors.ts';

// The one mapping of the service's typed errors (lib/errors.ts) to HTTP: each error's status, its
// DRF-shaped body and the headers it calls for. respond.ts turns anything thrown into a response
// through it.

export interface ErrorAnswer {
  status: number;
  body: Record<string, unknown>;
  headers: Record<string, string>;
}

const answer = (status: number, body: Record<string, unknown>, headers: Record<string, string> = {}): ErrorAnswer => ({ status, body, headers });

/** The status, body and headers of a typed error; a ServiceError of no known kind is a 400 with its message. */
export function errorAnswer(error: ServiceError): ErrorAnswer {
  const detail = { detail: error.message };
  if (error instanceof ValidationError) return answer(400, error.fields);
  if (error instanceof ParseError) return answer(400, detail);
  if (error instanceof NotAuthenticated || error instanceof AuthenticationFailed) return answer(401, detail, { 'WWW-Authenticate': 'Token' });
  if (error instanceof PermissionDenied) return answer(403, detail);
  if (error instanceof NotFound) return answer(404, detail);
  if (error instanceof MethodNotAllowed) return answer(405, detail, { Allow: error.allowed.join(', ') });
  if (error instanceof Conflict) return answer(409, detail);
  if (error instanceof PayloadTooLarge) return answer(413, detail);
  if (error instanceof UnsupportedMediaType) return answer(415, detail);
  if (error instanceof Throttled) return answer(429, detail, { 'Retry-After': String(Math.max(1, Math.ceil(error.waitSeconds))) });
  if (error instanceof ServiceUnavailable) return answer(503, detail, { 'Retry-After': String(error.retryAfterSeconds) });
  return answer(400, detail);
}
