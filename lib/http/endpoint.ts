import middy from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { authenticate, type Caller } from '../auth.ts';
import type { Input } from '../validation.ts';
import { bodyParser, parsedBody } from './body.ts';
import { errorResult, toHttpResponse, type ApiResult } from './respond.ts';

export type { ApiResult };

/** What a handler sees of its request. */
export interface ApiRequest {
  event: APIGatewayProxyEventV2;
  body: Input;
  /** Query parameters; a repeated one counts with its last value (as DRF). */
  query: Record<string, string | undefined>;
  path: Record<string, string | undefined>;
  /** The authenticated caller; rejects with the 401 of the contract. */
  caller(): Promise<Caller>;
}

export interface EndpointOptions {
  /** 'required': the token lookup starts before the body is parsed and gates the response. */
  auth: 'required' | 'none';
  /** false: leave the body unread (the fallback answers 404/405 whatever the body is). */
  parseBody?: boolean;
}

type Event = APIGatewayProxyEventV2;
type Result = APIGatewayProxyStructuredResultV2;

const callers = new WeakMap<object, Promise<Caller>>();

function callerOf(event: Event): Promise<Caller> {
  return callers.get(event) ?? Promise.reject(new Error('endpoint has no authentication'));
}

/** The authentication error of a request, if its token lookup failed. */
async function authFailure(event: Event): Promise<unknown> {
  const pending = callers.get(event);
  if (!pending) return undefined;
  try {
    await pending;
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

/**
 * Wraps a handler as a Lambda function for API Gateway HTTP API (payload v2): starts the token
 * lookup, parses the body, and shapes every outcome (result or error) into a JSON response with
 * CORS headers. An authentication failure always wins over the handler's own result or error, so
 * a handler that reads in parallel with the token lookup cannot leak data to a bad token.
 */
export function endpoint(handler: (request: ApiRequest) => Promise<ApiResult>, options: EndpointOptions) {
  return middy<Event, Result>()
    .use({
      before: async ({ event }) => {
        if (options.auth === 'required') {
          const pending = authenticate(event.headers?.authorization);
          pending.catch(() => undefined); // observed later; avoid an unhandled rejection meanwhile
          callers.set(event, pending);
        }
      },
      after: async (request) => {
        const failure = await authFailure(request.event);
        if (failure) throw failure;
        request.response = toHttpResponse(request.response as unknown as ApiResult, request.event.headers?.origin);
      },
      onError: async (request) => {
        const failure = (await authFailure(request.event)) ?? request.error;
        const context = { route: request.event.routeKey, requestId: request.event.requestContext?.requestId };
        request.response = toHttpResponse(errorResult(failure, context), request.event.headers?.origin);
      },
    })
    .use(options.parseBody === false ? [] : [bodyParser()])
    .handler(async (event) => {
      const result = await handler({
        event,
        body: parsedBody(event),
        query: queryOf(event),
        path: event.pathParameters ?? {},
        caller: () => callerOf(event),
      });
      return result as unknown as Result;
    });
}
