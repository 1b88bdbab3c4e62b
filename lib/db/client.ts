import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { awsRegion, dynamodbEndpoint } from '../config.ts';

let baseClient: DynamoDBClient | undefined;
let documentClient: DynamoDBDocumentClient | undefined;

/**
 * The one DynamoDB client of the process, created on first use and then reused across
 * invocations. With DYNAMODB_ENDPOINT set (DynamoDB Local) it signs with dummy credentials.
 */
export function dynamodb(): DynamoDBClient {
  if (!baseClient) {
    const endpoint = dynamodbEndpoint();
    baseClient = new DynamoDBClient({
      region: awsRegion(),
      ...(endpoint ? { endpoint, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } } : {}),
    });
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
