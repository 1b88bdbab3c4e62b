import middy from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { authenticate, authenticateAndRead, tokenFromHeader, type Caller, type CallerAndItems } from '../auth.ts';
import { isWellFormedToken } from '../tokens.ts';
import type { Key } from '../db/keys.ts';
import type { Input } from '../validation.ts';
import { withRequestLog } from './access-log.ts';
import { withBudget } from '../retry.ts';
import { bodyParser, parsedBody } from './body.ts';
import { errorResult, toHttpResponse, type ApiResult } from './respond.ts';

export type { ApiResult };

/** What a handler sees of its request. */
export interface ApiRequest {
  event: APIGatewayProxyEventV2;
  /** The HTTP method; HEAD reaches the GET route's handler, which must then change nothing. */
  method: string;
  body: Input;
  /** Query parameters; a repeated one counts with its last value (as DRF). */
  query: Record<string, string | undefined>;
  path: Record<string, string | undefined>;
  /** The authenticated caller (one GetItem of the token); rejects with the 401 of the contract. */
  caller(): Promise<Caller>;
  /** The caller and these items, read together in one BatchGetItem; rejects with the 401. */
  readAsCaller(itemKeys: Key[]): Promise<CallerAndItems>;
}

export interface EndpointOptions {
  /** 'required': the outcome of the token lookup gates the response. */
  auth: 'required' | 'none';
  /** false: leave the body unread (the fallback answers 404/405 whatever the body is). */
  parseBody?: boolean;
}

type Event = APIGatewayProxyEventV2;
type Result = APIGatewayProxyStructuredResultV2;

// The token lookup of each request, started by the handler (alone or with its own reads).
const lookups = new WeakMap<object, Promise<Caller>>();

function track<T extends Caller | CallerAndItems>(event: Event, pending: Promise<T>): Promise<T> {
  if (!lookups.has(event)) {
    const caller = pending.then((value): Caller => ('caller' in value ? value.caller : value));
    caller.catch(() => undefined); // observed by the response step; avoid an unhandled rejection
    lookups.set(event, caller);
  }
  return pending;
}

/**
 * The authentication error of a request, if any. A handler that never looked the token up (it
 * failed early, e.g. on its body) gets the lookup now: a bad token is answered 401 first, as DRF.
 */
async function authFailure(event: Event, required: boolean): Promise<unknown> {
  if (!required) return undefined;
  try {
    await (lookups.get(event) ?? track(event, authenticate(event.headers?.authorization)));
    return undefined;
  } catch (error) {
    return error;
  }
}

function queryOf(event: Event): Record<string, string | undefined> {
  const query: Record<string, string> = {};
  for (const [name, value] of new URLSearchParams(event.rawQueryString ?? '')) query[name] = value;
  return query;
}

/** A HEAD request gets the GET answer's status and headers, without its body. */
function withoutBodyOnHead(event: Event, response: Result): Result {
  if (event.requestContext?.http?.method !== 'HEAD') return response;
  const headOnly = { ...response };
  delete headOnly.body;
  delete headOnly.isBase64Encoded;
  return headOnly;
}

/**
 * Wraps a handler as a Lambda function for API Gateway HTTP API (payload v2): parses the body and
 * shapes every outcome (result or error) into a JSON response with CORS headers. The handler
 * looks the token up itself (alone, in parallel with a query, or inside its BatchGetItem); an
 * authentication failure always wins over the handler's own result or error, so a handler that
 * reads before the token is checked cannot leak data to a bad token.
 */
export function endpoint(handler: (request: ApiRequest) => Promise<ApiResult>, options: EndpointOptions) {
  const wrapped = middy<Event, Result>()
    .use({
      after: async (request) => {
        const failure = await authFailure(request.event, options.auth === 'required');
        if (failure) throw failure;
        request.response = withoutBodyOnHead(request.event, toHttpResponse(request.response as unknown as ApiResult, request.event.headers?.origin));
      },
      onError: async (request) => {
        const failure = (await authFailure(request.event, options.auth === 'required')) ?? request.error;
        const context = { route: request.event.routeKey, requestId: request.event.requestContext?.requestId };
        request.response = withoutBodyOnHead(request.event, toHttpResponse(errorResult(failure, context), request.event.headers?.origin));
      },
    })
    .use(options.parseBody === false ? [] : [bodyParser()])
    .handler(async (event) => {
      // Without a well-formed token the answer is a 401 whatever the handler reads: it is not run,
      // so a list's query (started in parallel with the token check) costs nothing.
      if (options.auth === 'required' && !isWellFormedToken(tokenFromHeader(event.headers?.authorization) ?? '')) {
        await track(event, authenticate(event.headers?.authorization));
      }
      const result = await handler({
        event,
        method: event.requestContext.http.method,
        body: parsedBody(event),
        query: queryOf(event),
        path: event.pathParameters ?? {},
        caller: () => track(event, authenticate(event.headers?.authorization)),
        readAsCaller: (itemKeys) => track(event, authenticateAndRead(event.headers?.authorization, itemKeys)),
      });
      return result as unknown as Result;
    });
  // One retry budget for the whole request (lib/retry.ts), and one log line with its DynamoDB
  // cost and metrics (access-log.ts).
  return withRequestLog((event, context) => withBudget(() => wrapped(event, context)));
}
