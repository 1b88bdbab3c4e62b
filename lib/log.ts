import { Logger } from '@aws-lambda-powertools/logger';
import { logLevel } from '#lib/config.ts';

// The project's logger: Powertools for AWS Lambda's Logger, one JSON object per line with level,
// message, timestamp and service, and in a function the Lambda context's fields (added by its
// middy middleware in lib/http/endpoint.ts). It writes through a console of its own on
// stdout/stderr, not the global one, whose Lambda prefix would hide the JSON from CloudWatch.
// Callers pass only what is safe to keep: never a header, a token, a password or a request body.

export const SERVICE_NAME = 'community-posts';

/** The level is LOG_LEVEL (lib/config.ts), unless Lambda's advanced logging controls set one. */
export const log = new Logger({ serviceName: SERVICE_NAME, logLevel: logLevel() });

/** Takes LOG_LEVEL again (settings are read on use): the request log does so for each request. */
export function refreshLogLevel(): void {
  log.setLogLevel(logLevel());
}

/**
 * Name, message and stack of an error, under `error` as Powertools writes errors. Nothing else of
 * the error: an SDK error can carry items (a cancelled transaction's reasons), which may hold
 * password hashes or tokens.
 */
export function describeError(error: unknown): { error: { name?: string; message: string; stack?: string } } {
  if (!(error instanceof Error)) return { error: { message: String(error) } };
  return { error: { name: error.name, message: error.message, ...(error.stack ? { stack: error.stack } : {}) } };
}
