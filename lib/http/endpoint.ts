import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { emptyUsage, withDynamoUsage } from '#lib/db/usage.ts';
import { log } from '#lib/log.ts';
import { withBudget } from '#lib/retry.ts';
import { tracing } from '#lib/tracing.ts';
import { requestLog } from './access-log.ts';
import { authentication, type Authenticated, type EndpointContext, type TokenReads } from './authentication.ts';
import type { Caller } from '#lib/auth/tokens.ts';
import { EMPTY_BODY, parseBody } from './body.ts';
import { cachedResult } from './caching.ts';
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
  /** A GET of content (a list, a post): answered with an ETag, and 304 for a matching If-None-Match. */
  validated?: boolean;
  handler: (request: ApiRequest & Authenticated<T, P>) => Promise<ApiResult>;
}

/**
 * A public read (docs/api.md, "Reading without an account"): a GET of published content, as a
 * token route, that with PUBLIC_READS=true also answers a request without an Authorization header,
 * with no caller (null: a reader who owns nothing). Always validated by an ETag.
 */
export interface PublicReadRoute<T, P> extends TokenReads<T, P> {
  auth: 'public-read';
  handler: (request: ApiRequest & Authenticated<T, P, Caller | null>) => Promise<ApiResult>;
}

type Middleware = middy.MiddlewareObj<Event, Result, Error, EndpointContext>;

/** The HTTP answer to a result, with CORS and caching headers; a HEAD request gets its status and headers only. */
function answer(event: Event, context: EndpointContext, validated: boolean, outcome: ApiResult): Result {
  const caller = context.authenticated?.caller;
  const method = event.requestContext?.http?.method;
  const result = cachedResult(outcome, {
    anonymous: caller === null,
    withToken: Boolean(caller),
    validated: validated && (method === 'GET' || method === 'HEAD'),
    headers: event.headers ?? {},
  });
  const response = toHttpResponse(result, event.headers?.origin);
  if (event.requestContext?.http?.method !== 'HEAD') return response;
  const headOnly = { ...response };
  delete headOnly.body;
  delete headOnly.isBase64Encoded;
  return headOnly;
}

/** Shapes every outcome, result or error, into the HTTP answer; `validated`: a content GET's 200 gets an ETag. */
const responder = (validated: boolean): Middleware => ({
  name: 'responder',
  after: (request) => {
    request.response = answer(request.event, request.context, validated, request.response as unknown as ApiResult);
  },
  onError: (request) => {
    const context = { route: request.event.routeKey, requestId: request.event.requestContext?.requestId };
    request.response = answer(request.event, request.context, validated, errorResult(request.error, context));
  },
});

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

type AnyRoute<T, P> = PublicRoute | TokenRoute<T, P> | PublicReadRoute<T, P>;

function wrap<T, P>(route: AnyRoute<T, P>): LambdaHandler {
  // Outermost the Lambda context for every log line (never the event: it holds headers and
  // bodies), the Tracer when tracing is on, then the request log and its metrics (access-log.ts),
  // whose `after` and `onError` run after the responder's and so see its answer.
  const chain = middy<Event, Result, Error, EndpointContext>()
    .use(injectLambdaContext(log, { logEvent: false }))
    .use(tracing ? [tracing.middleware] : [])
    .use(requestLog())
    .use(responder(route.auth === 'public-read' || (route.auth === 'token' && route.validated === true)));
  if (route.auth === 'none') {
    return chain
      .use(requestReader(route.parseBody !== false, false))
      .handler(async (_event, context) => (await route.handler(context.request!)) as unknown as Result);
  }
  return chain
    .use(requestReader(true, true))
    .use(authentication(route, { anonymous: route.auth === 'public-read' }))
    .handler(async (_event, context) => {
      const request = { ...context.request!, ...(context.authenticated as Authenticated<T, P, Caller | null>) };
      // A token route never runs without a caller: authentication answered the 401 before.
      return (await (route.auth === 'public-read' ? route.handler(request) : route.handler(request as ApiRequest & Authenticated<T, P>))) as unknown as Result;
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
export function endpoint<T = undefined, P = undefined>(route: PublicReadRoute<T, P>): LambdaHandler;
export function endpoint<T, P>(route: AnyRoute<T, P>): LambdaHandler {
  const wrapped = wrap(route);
  return (event, context) => withDynamoUsage(emptyUsage(), () => withBudget(() => wrapped(event, context), context?.getRemainingTimeInMillis?.()));
}
