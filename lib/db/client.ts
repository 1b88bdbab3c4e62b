import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Logger } from '@smithy/types';
import { awsRegion, dynamodbEndpoint, dynamodbRequestTimeoutMs, localCredentials } from '#lib/config.ts';
import { tracing } from '#lib/tracing.ts';
import { budgetRetryStrategy } from './retry.ts';
import { trackDynamoUsage } from './usage.ts';

let baseClient: DynamoDBClient | undefined;
let documentClient: DynamoDBDocumentClient | undefined;

export const DEFAULT_CONNECTION_TIMEOUT_MS = 1000;

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
        // No cap on open sockets (the SDK's is 50): a Lambda instance serves one request at a time,
        // so its calls never queue behind another request's for a socket; the local stack, which
        // serves every request in one process, must not queue them either, or a burst of requests
        // runs into the connection timeout below while waiting for a socket, not for DynamoDB.
        httpAgent: { maxSockets: Infinity },
        httpsAgent: { maxSockets: Infinity },
        connectionTimeout: DEFAULT_CONNECTION_TIMEOUT_MS,
        requestTimeout: dynamodbRequestTimeoutMs(),
        throwOnRequestTimeout: true,
      },
      ...(endpoint ? { endpoint, credentials: localCredentials() } : {}),
    });
    // Counts each request's DynamoDB calls and consumed capacity for its log line (lib/db/usage.ts).
    trackDynamoUsage(baseClient);
    // With tracing on (lib/tracing.ts), a subsegment for each call.
    tracing?.tracer.captureAWSv3Client(baseClient);
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
