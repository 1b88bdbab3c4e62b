import type { RetryErrorInfo, RetryStrategyV2, RetryToken } from '@smithy/types';
import { log, describeError } from '#lib/log.ts';
import { backoffDelay, currentDeadline, fitsBudget, retryStats, type BackoffKind } from '#lib/retry.ts';

// The DynamoDB half of retrying: which failures are worth another try, shared by the SDK's retry
// strategy below, the transaction resend (transact.ts) and the error mapping (lib/http/respond.ts),
// so that what is retried is what ends in a 503 once the budget (lib/retry.ts) is spent.

const THROTTLING_ERRORS = new Set([
  'ProvisionedThroughputExceededException',
  'ThrottlingException',
  'RequestLimitExceeded',
  'TransactionInProgressException',
  'LimitExceededException',
]);

const TRANSIENT_ERRORS = new Set([
  'InternalServerError',
  'ServiceUnavailable',
  'TimeoutError',
  'RequestTimeout',
  'RequestTimeoutException',
  // A single-item write that met an ongoing transaction on the same item: nothing was written.
  'TransactionConflictException',
]);

const NETWORK_ERROR_CODES = new Set(['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN', 'ENOTFOUND']);

interface SdkErrorShape {
  name?: string;
  code?: string;
  $metadata?: { httpStatusCode?: number };
  $retryable?: { throttling?: boolean };
  CancellationReasons?: { Code?: string }[];
}

/** 'throttling' or 'transient' for a DynamoDB or network failure worth retrying; null otherwise. */
export function transientKind(error: unknown): 'throttling' | 'transient' | null {
  if (typeof error !== 'object' || error === null) return null;
  const { name = '', code = '', $metadata, $retryable } = error as SdkErrorShape;
  if (THROTTLING_ERRORS.has(name) || $metadata?.httpStatusCode === 429 || $retryable?.throttling) return 'throttling';
  if (TRANSIENT_ERRORS.has(name) || NETWORK_ERROR_CODES.has(code)) return 'transient';
  const status = $metadata?.httpStatusCode ?? 0;
  if (status >= 500 && status <= 599) return 'transient';
  return null;
}

// Reasons that cancel a transaction without any fault of its own: it can be sent again as it is.
const RESEND_REASONS = new Set(['TransactionConflict', 'ProvisionedThroughputExceeded', 'ThrottlingError']);

/** The reason codes of a cancelled transaction, in the order of its writes ('None' for a write that was fine). */
export function cancellationReasons(error: unknown): string[] | null {
  if ((error as SdkErrorShape | null)?.name !== 'TransactionCanceledException') return null;
  return ((error as SdkErrorShape).CancellationReasons ?? []).map((reason) => reason.Code ?? 'None');
}

/**
 * How to wait before sending a cancelled transaction again when it was cancelled only by a
 * conflict with another transaction or by throttling; null when it cannot simply be resent.
 */
export function resendBackoff(error: unknown): BackoffKind | null {
  const codes = (cancellationReasons(error) ?? []).filter((code) => code !== 'None');
  if (codes.length === 0 || !codes.every((code) => RESEND_REASONS.has(code))) return null;
  return codes.includes('TransactionConflict') ? 'conflict' : 'throttling';
}

class BudgetToken implements RetryToken {
  constructor(
    private readonly count: number,
    private readonly delay: number,
    readonly deadline: number,
  ) {}
  getRetryCount(): number {
    return this.count;
  }
  getRetryDelay(): number {
    return this.delay;
  }
}

/**
 * The SDK's retries of one call: throttling, DynamoDB's 5xx, timeouts and network errors are
 * retried with full-jitter backoff until the request's retry budget (lib/retry.ts) is spent; the
 * last error then reaches the caller and becomes a 503. Client errors are never retried. There is
 * no attempt count and no shared retry quota: the deadline alone bounds the work, and a Lambda
 * instance serves one request at a time.
 */
export const budgetRetryStrategy: RetryStrategyV2 = {
  async acquireInitialRetryToken(): Promise<RetryToken> {
    return new BudgetToken(0, 0, currentDeadline());
  },
  async refreshRetryTokenForRetry(token: RetryToken, info: RetryErrorInfo): Promise<RetryToken> {
    const kind = transientKind(info.error) ?? (info.errorType === 'THROTTLING' ? 'throttling' : info.errorType === 'TRANSIENT' ? 'transient' : null);
    if (!kind) throw info.error ?? new Error('not retryable');
    const deadline = (token as BudgetToken).deadline ?? currentDeadline();
    const retry = token.getRetryCount() + 1;
    const delay = backoffDelay(kind, retry);
    if (!fitsBudget(deadline, delay)) {
      retryStats.budgetExhausted += 1;
      throw info.error ?? new Error('retry budget spent');
    }
    const name = info.error?.name ?? 'Error';
    retryStats.sdkRetries[name] = (retryStats.sdkRetries[name] ?? 0) + 1;
    log.debug('dynamodb retry', { retry, delayMs: Math.round(delay), ...describeError(info.error) });
    return new BudgetToken(retry, delay, deadline);
  },
  recordSuccess(): void {},
};
