import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Logger, RetryErrorInfo, RetryStrategyV2, RetryToken } from '@smithy/types';
import { awsRegion, dynamodbEndpoint, localCredentials } from '../config.ts';
import { describeError, log } from '../log.ts';
import { backoffDelay, currentDeadline, fitsBudget, retryStats, transientKind } from '../retry.ts';
import { trackDynamoUsage } from './usage.ts';

let baseClient: DynamoDBClient | undefined;
let documentClient: DynamoDBDocumentClient | undefined;

export const DEFAULT_REQUEST_TIMEOUT_MS = 2000;
export const DEFAULT_CONNECTION_TIMEOUT_MS = 1000;

function positiveMs(name: string, fallback: number): number {
  const value = Number(process.env[name]);
  return Number.isFinite(value) && value > 0 ? value : fallback;
}

/**
 * How long one DynamoDB call may take before the SDK gives up on it (TimeoutError, then retried
 * within the budget): DYNAMODB_REQUEST_TIMEOUT_MS, default 2000; connecting: 1000.
 */
export function requestTimeoutMs(): number {
  return positiveMs('DYNAMODB_REQUEST_TIMEOUT_MS', DEFAULT_REQUEST_TIMEOUT_MS);
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

/**
 * The SDK's logger middleware builds a filtered copy of every command's input and output for
 * `logger.info` (and of the input for `logger.error`) even with its default no-op logger: it only
 * checks that the method exists. A logger without them skips that work, a walk over every item
 * read, on every call. Nothing is lost: the default logger writes nothing either.
 */
const sdkLogger = { trace() {}, debug() {}, warn() {} } as Partial<Logger> as Logger;

/**
 * The one DynamoDB client of the process, created on first use and then reused across
 * invocations. With DYNAMODB_ENDPOINT set (DynamoDB Local) it signs with the environment's
 * credentials, or placeholders.
 */
export function dynamodb(): DynamoDBClient {
  if (!baseClient) {
    const endpoint = dynamodbEndpoint();
    baseClient = new DynamoDBClient({
      region: awsRegion(),
      logger: sdkLogger,
      retryStrategy: budgetRetryStrategy,
      requestHandler: {
        connectionTimeout: DEFAULT_CONNECTION_TIMEOUT_MS,
        requestTimeout: requestTimeoutMs(),
        throwOnRequestTimeout: true,
      },
      ...(endpoint ? { endpoint, credentials: localCredentials() } : {}),
    });
    // Counts each request's DynamoDB calls and consumed capacity for its log line (lib/db/usage.ts).
    trackDynamoUsage(baseClient);
  }
  return baseClient;
}

/** The same client with plain JavaScript values in and out. */
export function db(): DynamoDBDocumentClient {
  documentClient ??= DynamoDBDocumentClient.from(dynamodb(), {
    marshallOptions: { removeUndefinedValues: true },
  });
  return documentClient;
}

/** Drops the cached clients, so the next use reads the environment again. */
export function resetDb(): void {
  baseClient?.destroy();
  baseClient = undefined;
  documentClient = undefined;
}
