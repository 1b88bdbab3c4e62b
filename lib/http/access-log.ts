import { Logger } from '@aws-lambda-powertools/logger';
import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { emptyUsage, withDynamoUsage } from '../db/usage.ts';

// The request log: one structured JSON line per request (Powertools Logger) with its route,
// status, latency and DynamoDB cost, and CloudWatch metrics in the embedded metric format
// (Powertools Metrics) when running in Lambda, including a ColdStart metric. It records only
// what is listed in RequestRecord: never a header, a query string, a body, a token or a password.

export const SERVICE_NAME = 'community-posts';
export const METRICS_NAMESPACE = 'CommunityPosts';

type PowertoolsLevel = 'DEBUG' | 'INFO' | 'WARN' | 'ERROR' | 'SILENT';
const LEVELS: Record<string, PowertoolsLevel> = { debug: 'DEBUG', info: 'INFO', warn: 'WARN', error: 'ERROR', silent: 'SILENT' };

/** LOG_LEVEL as the project spells it (`debug`, `info`, `warn`, `error`, `silent`; any case). */
export function powertoolsLogLevel(value: string | undefined = process.env.LOG_LEVEL): PowertoolsLevel {
  return LEVELS[(value ?? '').trim().toLowerCase()] ?? 'INFO';
}

/** Powertools reads LOG_LEVEL only in upper case: it is given the level explicitly. */
export const requestLogger = new Logger({ serviceName: SERVICE_NAME, logLevel: powertoolsLogLevel() });

export const metrics = new Metrics({ namespace: METRICS_NAMESPACE, serviceName: SERVICE_NAME });

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

function publish(record: RequestRecord, functionName: string | undefined): void {
  if (listener) listener(record);
  else requestLogger.info('request', { ...record });
  if (!metricsEnabled()) return;
  if (record.coldStart) metrics.captureColdStartMetric(functionName);
  metrics.addMetric('Latency', MetricUnit.Milliseconds, record.latencyMs);
  metrics.addMetric('DynamoDBCalls', MetricUnit.Count, record.dynamodbCalls);
  metrics.addMetric('ConsumedReadCapacity', MetricUnit.Count, record.consumedCapacity.read);
  metrics.addMetric('ConsumedWriteCapacity', MetricUnit.Count, record.consumedCapacity.write);
  if (record.status >= 500) metrics.addMetric('ServerErrors', MetricUnit.Count, 1);
  metrics.publishStoredMetrics();
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
