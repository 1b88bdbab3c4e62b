import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { emptyUsage, withDynamoUsage } from '#lib/db/usage.ts';
import { log } from '#lib/log.ts';
import { withBudget } from '#lib/retry.ts';
import { tracing } from '#lib/tracing.ts';
import { requestLog } from './access-log.ts';
import { authentication, type Authenticated, type EndpointContext, type TokenReads } from './authentication.ts';
import { EMPTY_BODY, parseBody } from './body.ts';
import { apiRequest, type ApiRequest } from './request.ts';
import { errorResult, toHttpResponse, type ApiResult } from './respond.ts';

export type { ApiRequest, ApiResult };

type Event = APIGatewayProxyEventV2;
type Result = APIGatewayProxyStructuredResultV2;
type LambdaHandler = (event: Event, context: Context) => Promise<Result>;

/** A route answered without a token (login, logout, the documentation, the fallback). */
export interface PublicRoute {
  auth: 'none';
  /** false: leave the body unread (the fallback answers 404/405 whatever the body is). */
  parseBody?: boolean;
  handler: (request: ApiRequest) => Promise<ApiResult>;
}

/** A route that needs `Authorization: Token ...`: its handler runs only for a known caller. */
export interface TokenRoute<T, P> extends TokenReads<T, P> {
  auth: 'token';
  handler: (request: ApiRequest & Authenticated<T, P>) => Promise<ApiResult>;
}

type Middleware = middy.MiddlewareObj<Event, Result, Error, EndpointContext>;

/** The HTTP answer to a result, with CORS headers; a HEAD request gets its status and headers only. */
function answer(event: Event, result: ApiResult): Result {
  const response = toHttpResponse(result, event.headers?.origin);
  if (event.requestContext?.http?.method !== 'HEAD') return response;
  const headOnly = { ...response };
  delete headOnly.body;
  delete headOnly.isBase64Encoded;
  return headOnly;
}

/** Shapes every outcome, result or error, into the HTTP answer. */
const responder: Middleware = {
  name: 'responder',
  after: (request) => {
    request.response = answer(request.event, request.response as unknown as ApiResult);
  },
  onError: (request) => {
    const context = { route: request.event.routeKey, requestId: request.event.requestContext?.requestId };
    request.response = answer(request.event, errorResult(request.error, context));
  },
};

/** Reads the request and its body; for a token route a bad body is answered after the token check. */
function requestReader(parse: boolean, deferErrors: boolean): Middleware {
  return {
    name: 'request',
    before: async (request) => {
      // Nothing of an earlier invocation may carry over, should a runtime reuse its context object.
      request.context.deferred = undefined;
      request.context.authenticated = undefined;
      let body = EMPTY_BODY;
      if (parse) {
        try {
          body = await parseBody(request);
        } catch (error) {
          if (!deferErrors) throw error;
          request.context.deferred = error;
        }
      }
      request.context.request = apiRequest(request.event, body);
    },
  };
}

function wrap<T, P>(route: PublicRoute | TokenRoute<T, P>): LambdaHandler {
  // Outermost the Lambda context for every log line (never the event: it holds headers and
  // bodies), the Tracer when tracing is on, then the request log and its metrics (access-log.ts),
  // whose `after` and `onError` run after the responder's and so see its answer.
  const chain = middy<Event, Result, Error, EndpointContext>()
    .use(injectLambdaContext(log, { logEvent: false }))
    .use(tracing ? [tracing.middleware] : [])
    .use(requestLog())
    .use(responder);
  if (route.auth === 'none') {
    return chain
      .use(requestReader(route.parseBody !== false, false))
      .handler(async (_event, context) => (await route.handler(context.request!)) as unknown as Result);
  }
  return chain
    .use(requestReader(true, true))
    .use(authentication(route))
    .handler(async (_event, context) => {
      const authenticated = context.authenticated as Authenticated<T, P>;
      return (await route.handler({ ...context.request!, ...authenticated })) as unknown as Result;
    });
}

/**
 * Wraps a route's handler as a Lambda function for API Gateway HTTP API (payload v2): reads the
 * request, authenticates a token route together with its declared reads (authentication.ts),
 * runs the handler, and shapes every outcome into a JSON response. The whole request runs under
 * one retry budget (lib/retry.ts) and counts its DynamoDB calls (lib/db/usage.ts), both kept in
 * AsyncLocalStorage around the middy chain, which writes one log line with that cost (access-log.ts).
 */
export function endpoint(route: PublicRoute): LambdaHandler;
export function endpoint<T = undefined, P = undefined>(route: TokenRoute<T, P>): LambdaHandler;
export function endpoint<T, P>(route: PublicRoute | TokenRoute<T, P>): LambdaHandler {
  const wrapped = wrap(route);
  return (event, context) => withDynamoUsage(emptyUsage(), () => withBudget(() => wrapped(event, context)));
}
