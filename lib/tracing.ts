import type { Tracer } from '@aws-lambda-powertools/tracer';
import type middy from '@middy/core';
import { tracingEnabled } from '#lib/config.ts';
import { SERVICE_NAME } from '#lib/log.ts';

// AWS X-Ray tracing with the Powertools Tracer, only when switched on (`cdk deploy -c
// tracing=true` sets POWERTOOLS_TRACE_ENABLED=true and X-Ray active on every function). The
// Tracer and the X-Ray SDK under it are loaded with a dynamic import, and only then; the bundles
// of an untraced stack do not even carry them (TRACER_IN_BUNDLE below), since their bytes alone
// cost a cold start about 4 ms (docs/performance.md has the figures).

export interface Tracing {
  tracer: Tracer;
  /** captureLambdaHandler: a subsegment for the handler, the cold start and service annotations. */
  middleware: middy.MiddlewareObj;
}

async function loadTracing(): Promise<Tracing> {
  const [{ Tracer }, { captureLambdaHandler }] = await Promise.all([
    import('@aws-lambda-powertools/tracer'),
    import('@aws-lambda-powertools/tracer/middleware'),
  ]);
  // The only outgoing calls are DynamoDB's, traced on the client (lib/db/client.ts): patching
  // http and https as well would trace each of them twice.
  const tracer = new Tracer({ serviceName: SERVICE_NAME, captureHTTPsRequests: false });
  // Never the response as metadata: a login's holds the token.
  const capture = captureLambdaHandler(tracer, { captureResponse: false }) as middy.MiddlewareObj;
  return {
    tracer,
    middleware: {
      before: capture.before!,
      after: capture.after!,
      // Outside the responder (lib/http/endpoint.ts): an error it answered with a 4xx is the
      // client's, and closes the subsegment as a success; a 5xx records the error.
      onError: (request) =>
        ((request.response as { statusCode?: number } | undefined)?.statusCode ?? 500) < 500 ? capture.after!(request) : capture.onError!(request),
    },
  };
}

/**
 * Whether this code carries the Tracer: esbuild defines it for each function's bundle (true only
 * when the stack is synthesized with tracing on, infra/api-function.ts), and drops the Tracer and
 * the X-Ray SDK from the bundles of an untraced stack. Run from source it is not defined: carried.
 */
declare const TRACER_IN_BUNDLE: boolean | undefined;

/**
 * The Tracer and its middleware when tracing is on; undefined (and nothing loaded) when off. The
 * condition stays one expression: esbuild drops the dead import only when it folds it whole.
 */
export const tracing: Tracing | undefined = (typeof TRACER_IN_BUNDLE === 'undefined' || TRACER_IN_BUNDLE) && tracingEnabled() ? await loadTracing() : undefined;
