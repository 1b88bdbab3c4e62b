// Typed API errors, thrown by every layer: each carries its HTTP status and its DRF-shaped body.
// respond.ts is the one place that turns any thrown value into a response.

export type ErrorBody = Record<string, unknown>;

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: ErrorBody,
    readonly headers: Record<string, string> = {},
  ) {
    super(typeof body.detail === 'string' ? body.detail : `HTTP ${status}`);
    this.name = new.target.name;
  }
}

/** 400 with `{"field": ["message", ...]}`. */
export class ValidationError extends ApiError {
  constructor(readonly fields: Record<string, string[]>) {
    super(400, fields);
  }
}

/** 400 with `{"detail": ...}`: a body that could not be parsed. */
export class ParseError extends ApiError {
  constructor(detail: string) {
    super(400, { detail });
  }
}

export class NotAuthenticated extends ApiError {
  constructor(detail = 'Authentication credentials were not provided.') {
    super(401, { detail }, { 'WWW-Authenticate': 'Token' });
  }
}

export class AuthenticationFailed extends ApiError {
  constructor(detail = 'Invalid token.') {
    super(401, { detail }, { 'WWW-Authenticate': 'Token' });
  }
}

export class PermissionDenied extends ApiError {
  constructor(detail: string) {
    super(403, { detail });
  }
}

export class NotFound extends ApiError {
  constructor(detail = 'Not found.') {
    super(404, { detail });
  }
}

export class InvalidPage extends NotFound {
  constructor() {
    super('Invalid page.');
  }
}

export class MethodNotAllowed extends ApiError {
  constructor(method: string, allowed: string[]) {
    super(405, { detail: `Method "${method}" not allowed.` }, { Allow: allowed.join(', ') });
  }
}

export class Conflict extends ApiError {
  constructor(detail: string) {
    super(409, { detail });
  }
}

export class PayloadTooLarge extends ApiError {
  constructor(limitBytes: number) {
    super(413, { detail: `Request body exceeds the limit of ${limitBytes} bytes.` });
  }
}

export class UnsupportedMediaType extends ApiError {
  constructor(contentType: string) {
    super(415, { detail: `Unsupported media type "${contentType}" in request.` });
  }
}

/** 503: contention or throttling outlasted the retry budget; the client may try again. */
export class ServiceUnavailable extends ApiError {
  constructor(retryAfterSeconds = 1) {
    super(
      503,
      { detail: 'The service is busy. Please try again shortly.' },
      { 'Retry-After': String(retryAfterSeconds) },
    );
  }
}

/** 429 as DRF's throttling answers it: how long to wait, in the body and in `Retry-After`. */
export class Throttled extends ApiError {
  constructor(readonly waitSeconds: number) {
    const seconds = Math.max(1, Math.ceil(waitSeconds));
    super(
      429,
      { detail: `Request was throttled. Expected available in ${seconds} second${seconds === 1 ? '' : 's'}.` },
      { 'Retry-After': String(seconds) },
    );
  }
}
