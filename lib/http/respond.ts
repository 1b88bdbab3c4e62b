import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { resendBackoff, transientKind } from '#lib/db/retry.ts';
import { describeError, log } from '#lib/log.ts';
import { RetryableConflict } from '#lib/retry.ts';
import { corsHeaders } from './cors.ts';
import { ServiceError, ServiceUnavailable } from '#lib/errors.ts';
import { errorAnswer } from './errors.ts';

/** What a handler returns: a status, an optional JSON body and extra headers. */
export interface ApiResult {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  /**
   * A body sent as it is instead of JSON (the documentation page and its assets); the handler
   * gives its Content-Type in `headers`. Binary data is base64 with `isBase64Encoded`.
   */
  raw?: { data: string; isBase64Encoded?: boolean };
}

export const ok = (body: unknown, headers?: Record<string, string>): ApiResult => ({ status: 200, body, ...(headers ? { headers } : {}) });
export const created = (body: unknown): ApiResult => ({ status: 201, body });
export const noContent = (): ApiResult => ({ status: 204 });

/**
 * The 503 of a request whose retries ran out of budget (lib/retry.ts): DynamoDB throttling, a
 * 5xx or timeout of DynamoDB, a network error, or a write that kept losing races. The client may
 * try again after Retry-After seconds.
 */
function busyResult(): ApiResult {
  return errorAnswer(new ServiceUnavailable());
}

/** The one mapping from anything thrown to an HTTP answer. Unknown errors are logged, never shown. */
export function errorResult(error: unknown, context: Record<string, unknown> = {}): ApiResult {
  if (error instanceof ServiceError) {
    if (error instanceof ServiceUnavailable) log.warn('retry budget spent', { ...context, status: 503 });
    return errorAnswer(error);
  }
  if (error instanceof RetryableConflict || transientKind(error) || resendBackoff(error)) {
    log.warn('dynamodb unavailable', { ...context, ...describeError(error) });
    return busyResult();
  }
  log.error('unhandled error', { ...context, ...describeError(error) });
  return { status: 500, body: { detail: 'A server error occurred.' } };
}

export function toHttpResponse(result: ApiResult, origin: string | undefined): APIGatewayProxyStructuredResultV2 {
  const headers: Record<string, string> = { ...corsHeaders(origin), ...result.headers };
  if (result.raw) return { statusCode: result.status, headers, body: result.raw.data, isBase64Encoded: result.raw.isBase64Encoded === true };
  if (result.body === undefined) return { statusCode: result.status, headers };
  return {
    statusCode: result.status,
    headers: { 'Content-Type': 'application/json', ...headers },
    body: JSON.stringify(result.body),
  };
}
