import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { emptyUsage, withDynamoUsage } from '#lib/db/usage.ts';
import { log } from '#lib/log.ts';
import { publishMetrics } from './metrics.ts';

// The request log: one structured JSON line per request (lib/log.ts, at info) with its route,
// status, latency and DynamoDB cost, and CloudWatch metrics in the embedded metric format
// (lib/http/metrics.ts) when running in Lambda, including a ColdStart metric. It records only
// what is listed in RequestRecord: never a header, a query string, a body, a token or a password.

export const SERVICE_NAME = 'community-posts';
export const METRICS_NAMESPACE = 'CommunityPosts';

/** Everything one request's log line holds. */
export interface RequestRecord {
  /** API Gateway's request id (also in the API's access log). */
  requestId: string;
  /** The Lambda invocation's id. */
  lambdaRequestId?: string;
  /** The route key, e.g. `GET /api/v1/posts/detail/{slug}`, or `$default` (404/405). */
  route: string;
  method: string;
  /** The request path (no query string). */
  path: string;
  status: number;
  latencyMs: number;
  /** The first request this process (Lambda instance) served. */
  coldStart: boolean;
  dynamodbCalls: number;
  /** Capacity units DynamoDB reported for this request's calls. */
  consumedCapacity: { read: number; write: number };
}

type Listener = (record: RequestRecord) => void;
let listener: Listener | undefined;

/**
 * Hands each request's record to `listen` instead of writing the JSON line (the local server
 * prints its own readable access log); `undefined` restores the JSON line.
 */
export function onRequestLogged(listen: Listener | undefined): void {
  listener = listen;
}

/** Metrics are published only inside Lambda (CloudWatch reads them from the function's log). */
function metricsEnabled(): boolean {
  return Boolean(process.env.AWS_LAMBDA_FUNCTION_NAME);
}

const round = (value: number, digits: number) => Number(value.toFixed(digits));

/** A provisioned-concurrency instance starts before any request: its first request is warm. */
function countsAsColdStart(record: RequestRecord): boolean {
  return record.coldStart && process.env.AWS_LAMBDA_INITIALIZATION_TYPE !== 'provisioned-concurrency';
}

function publish(record: RequestRecord, functionName: string | undefined): void {
  if (listener) listener(record);
  else log.info('request', { service: SERVICE_NAME, ...record });
  if (!metricsEnabled()) return;
  if (countsAsColdStart(record)) {
    const function_name = functionName ?? process.env.AWS_LAMBDA_FUNCTION_NAME ?? '';
    publishMetrics(METRICS_NAMESPACE, { service: SERVICE_NAME, function_name }, [{ name: 'ColdStart', unit: 'Count', value: 1 }]);
  }
  publishMetrics(METRICS_NAMESPACE, { service: SERVICE_NAME }, [
    { name: 'Latency', unit: 'Milliseconds', value: record.latencyMs },
    { name: 'DynamoDBCalls', unit: 'Count', value: record.dynamodbCalls },
    { name: 'ConsumedReadCapacity', unit: 'Count', value: record.consumedCapacity.read },
    { name: 'ConsumedWriteCapacity', unit: 'Count', value: record.consumedCapacity.write },
    ...(record.status >= 500 ? [{ name: 'ServerErrors', unit: 'Count' as const, value: 1 }] : []),
  ]);
}

type Event = APIGatewayProxyEventV2;
type Result = APIGatewayProxyStructuredResultV2;
export type LambdaHandler = (event: Event, context: Context) => Promise<Result>;

let coldStart = true;

/**
 * Wraps a Lambda handler: counts its DynamoDB calls and capacity, and writes one record when it
 * answers (or throws: status 500, as Lambda's caller sees it).
 */
export function withRequestLog(handler: LambdaHandler): LambdaHandler {
  return async (event, context) => {
    const started = performance.now();
    const cold = coldStart;
    coldStart = false;
    const usage = emptyUsage();
    let status = 500;
    try {
      const result = await withDynamoUsage(usage, () => handler(event, context));
      status = result?.statusCode ?? 200;
      return result;
    } finally {
      try {
        publish(
          {
            requestId: event.requestContext?.requestId ?? '',
            ...(context?.awsRequestId ? { lambdaRequestId: context.awsRequestId } : {}),
            route: event.routeKey ?? '',
            method: event.requestContext?.http?.method ?? '',
            path: event.rawPath ?? '',
            status,
            latencyMs: round(performance.now() - started, 1),
            coldStart: cold,
            dynamodbCalls: usage.calls,
            consumedCapacity: { read: round(usage.readUnits, 2), write: round(usage.writeUnits, 2) },
          },
          context?.functionName,
        );
      } catch {
        // The log must never change the answer.
      }
    }
  };
}
