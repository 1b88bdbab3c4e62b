import { MetricUnit, type Metrics } from '@aws-lambda-powertools/metrics';
import { logMetrics } from '@aws-lambda-powertools/metrics/middleware';
import type middy from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { lambdaFunctionName, provisionedConcurrency } from '#lib/config.ts';
import { currentDynamoUsage, emptyUsage } from '#lib/db/usage.ts';
import { log, refreshLogLevel } from '#lib/log.ts';
import { metrics } from '#lib/metrics.ts';

// The request log: one `request` line per request through the Powertools Logger (lib/log.ts, at
// info) with its route, status, latency and DynamoDB cost, and in Lambda the request's metrics
// (lib/metrics.ts), which Powertools' `logMetrics` middleware publishes with a ColdStart metric.
// The line records only what is listed in RequestRecord, besides the Lambda context's fields: never a header, a query string, a body, a token or a password.

/** Everything one request's log line holds, besides what the logger adds. */
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
  /** The first request this instance served, unless it was started for provisioned concurrency. */
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

type Event = APIGatewayProxyEventV2;
type Result = APIGatewayProxyStructuredResultV2;
/** The request's start, kept in middy's per-request `internal` store. */
type Internal = { requestStartedAt?: number };
type Middleware = middy.MiddlewareObj<Event, Result, Error, Context, Internal>;
type Request = middy.Request<Event, Result, Error, Context, Internal>;

const round = (value: number, digits: number) => Number(value.toFixed(digits));

let firstRequest = true;

function record(request: Request): RequestRecord {
  const { event, context } = request;
  const usage = currentDynamoUsage() ?? emptyUsage();
  const start = request.internal.requestStartedAt ?? performance.now();
  return {
    requestId: event.requestContext?.requestId ?? '',
    ...(context?.awsRequestId ? { lambdaRequestId: context.awsRequestId } : {}),
    route: event.routeKey ?? '',
    method: event.requestContext?.http?.method ?? '',
    path: event.rawPath ?? '',
    // After the responder: its answer, or 500 for an error nothing answered (Lambda's caller sees a failure).
    status: request.response?.statusCode ?? 500,
    latencyMs: round(performance.now() - start, 1),
    coldStart: firstRequest && !provisionedConcurrency(),
    dynamodbCalls: usage.calls,
    consumedCapacity: { read: round(usage.readUnits, 2), write: round(usage.writeUnits, 2) },
  };
}

/** The request line, and the request's metrics when `metrics` are published (in Lambda). */
function requestLine(published: Metrics | undefined): Middleware {
  const write = (request: Request) => {
    try {
      const line = record(request);
      firstRequest = false;
      if (listener) listener(line);
      else log.info('request', { ...line });
      if (!published) return;
      published.addMetric('Latency', MetricUnit.Milliseconds, line.latencyMs);
      published.addMetric('DynamoDBCalls', MetricUnit.Count, line.dynamodbCalls);
      published.addMetric('ConsumedReadCapacity', MetricUnit.Count, line.consumedCapacity.read);
      published.addMetric('ConsumedWriteCapacity', MetricUnit.Count, line.consumedCapacity.write);
      if (line.status >= 500) published.addMetric('ServerErrors', MetricUnit.Count, 1);
    } catch {
      // The log must never change the answer.
    }
  };
  return {
    before: (request) => {
      request.internal.requestStartedAt = performance.now();
      refreshLogLevel();
    },
    after: write,
    onError: write,
  };
}

/**
 * The request log's middlewares, outside the responder (lib/http/endpoint.ts), so that they see
 * its answer: in Lambda Powertools' `logMetrics`, which captures the ColdStart metric (dimensions
 * service and function_name; none on a provisioned-concurrency instance) and publishes the
 * request's metrics after the line added them; then the line. Outside Lambda no metrics: metrics
 * 2.36 has no option to turn them off, only POWERTOOLS_METRICS_DISABLED, read when an instance is
 * made, so the middleware is left out instead.
 */
export function requestLog(): Middleware[] {
  const inLambda = lambdaFunctionName() !== undefined;
  return [...(inLambda ? [logMetrics(metrics, { captureColdStartMetric: true })] : []), requestLine(inLambda ? metrics : undefined)];
}
