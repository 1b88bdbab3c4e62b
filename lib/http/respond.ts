import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { ApiError, ServiceUnavailable } from '../errors.ts';
import { describeError, log } from '../log.ts';
import { corsHeaders } from './cors.ts';

/** What a handler returns: a status, an optional JSON body and extra headers. */
export interface ApiResult {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export const ok = (body: unknown, headers?: Record<string, string>): ApiResult => ({ status: 200, body, ...(headers ? { headers } : {}) });
export const created = (body: unknown): ApiResult => ({ status: 201, body });
export const noContent = (): ApiResult => ({ status: 204 });

// DynamoDB errors that mean "busy, try later" once the SDK's own retries are spent.
const TRANSIENT_DYNAMODB_ERRORS = new Set([
  'ProvisionedThroughputExceededException',
  'ThrottlingException',
  'RequestLimitExceeded',
  'InternalServerError',
  'ServiceUnavailable',
  'TransactionInProgressException',
  'TimeoutError',
]);

/** The one mapping from anything thrown to an HTTP answer. Unknown errors are logged, never shown. */
export function errorResult(error: unknown, context: Record<string, unknown> = {}): ApiResult {
  if (error instanceof ApiError) return { status: error.status, body: error.body, headers: error.headers };
  const name = (error as { name?: string } | null)?.name ?? '';
  if (TRANSIENT_DYNAMODB_ERRORS.has(name)) {
    log.warn('dynamodb unavailable', { ...context, ...describeError(error) });
    const busy = new ServiceUnavailable();
    return { status: busy.status, body: busy.body, headers: busy.headers };
  }
  log.error('unhandled error', { ...context, ...describeError(error) });
  return { status: 500, body: { detail: 'A server error occurred.' } };
}

export function toHttpResponse(result: ApiResult, origin: string | undefined): APIGatewayProxyStructuredResultV2 {
  const headers: Record<string, string> = { ...corsHeaders(origin), ...result.headers };
  if (result.body === undefined) return { statusCode: result.status, headers };
  return {
    statusCode: result.status,
    headers: { 'Content-Type': 'application/json', ...headers },
    body: JSON.stringify(result.body),
  };
}
