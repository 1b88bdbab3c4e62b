// The service's typed errors, thrown by every layer (validation, the table's reads and writes,
// authentication, the entities): each names what went wrong and carries the client-facing message,
// never an HTTP status. lib/http/errors.ts is the one place that maps each of them to a response.

/** A refusal the client can act on: its message is safe to show. */
export abstract class ServiceError extends Error {
  constructor(message: string) {
    super(message);
    this.name = new.target.name;
  }
}

/** Fields that fail their rules: `{"field": ["message", ...]}`. */
export class ValidationError extends ServiceError {
  constructor(readonly fields: Record<string, string[]>) {
    super('Invalid input.');
  }
}

/** A body that could not be parsed. */
export class ParseError extends ServiceError {}

/** No credentials where they are required. */
export class NotAuthenticated extends ServiceError {
  constructor(detail = 'Authentication credentials were not provided.') {
    super(detail);
  }
}

/** Credentials that are not (or no longer) valid. */
export class AuthenticationFailed extends ServiceError {
  constructor(detail = 'Invalid token.') {
    super(detail);
  }
}

/** A caller who may not do this. */
export class PermissionDenied extends ServiceError {}

export class NotFound extends ServiceError {
  constructor(detail = 'Not found.') {
    super(detail);
  }
}

/** A page number or cursor that names no page of the list. */
export class InvalidPage extends NotFound {
  constructor() {
    super('Invalid page.');
  }
}

export class MethodNotAllowed extends ServiceError {
  constructor(
    readonly method: string,
    readonly allowed: readonly string[],
  ) {
    super(`Method "${method}" not allowed.`);
  }
}

/** The request contradicts the stored state. */
export class Conflict extends ServiceError {}

export class PayloadTooLarge extends ServiceError {
  constructor(readonly limitBytes: number) {
    super(`Request body exceeds the limit of ${limitBytes} bytes.`);
  }
}

export class UnsupportedMediaType extends ServiceError {
  constructor(readonly contentType: string) {
    super(`Unsupported media type "${contentType}" in request.`);
  }
}

/** Contention or throttling outlasted the retry budget; the client may try again. */
export class ServiceUnavailable extends ServiceError {
  constructor(readonly retryAfterSeconds = 1) {
    super('The service is busy. Please try again shortly.');
  }
}

/** Too many attempts: how long to wait, in whole seconds (at least 1). */
export class Throttled extends ServiceError {
  readonly waitSeconds: number;

  constructor(waitSeconds: number) {
    const seconds = Math.max(1, Math.ceil(waitSeconds));
    super(`Request was throttled. Expected available in ${seconds} second${seconds === 1 ? '' : 's'}.`);
    this.waitSeconds = waitSeconds;
  }
}
