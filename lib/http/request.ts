import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import type { Input } from '#lib/validation.ts';

/** What a handler sees of its request. */
export interface ApiRequest {
  event: APIGatewayProxyEventV2;
  /** The HTTP method; HEAD reaches the GET route's handler, which must then change nothing. */
  method: string;
  body: Input;
  /** Query parameters; a repeated one counts with its last value (as DRF). */
  query: Record<string, string | undefined>;
  path: Record<string, string | undefined>;
}

function queryOf(event: APIGatewayProxyEventV2): Record<string, string | undefined> {
  const query: Record<string, string> = {};
  for (const [name, value] of new URLSearchParams(event.rawQueryString ?? '')) query[name] = value;
  return query;
}

export function apiRequest(event: APIGatewayProxyEventV2, body: Input): ApiRequest {
  return { event, method: event.requestContext.http.method, body, query: queryOf(event), path: event.pathParameters ?? {} };
}

/** The client's address as API Gateway reports it (never a header, which a client could set). */
export function sourceAddress(request: ApiRequest): string {
  return request.event.requestContext?.http?.sourceIp ?? '';
}

/**
 * `scheme://host` of the API as the request reached it, for the links the service writes (Link,
 * the feed, the OpenAPI servers): the host API Gateway reports (requestContext.domainName: the
 * API's own or custom domain; locally the address npm start listens on), never a header a client
 * chose such as X-Forwarded-Host, so that a cached answer cannot carry one client's host to
 * others. The scheme is API Gateway's X-Forwarded-Proto: https unless it says http (locally).
 */
export function requestBase(event: Pick<APIGatewayProxyEventV2, 'headers' | 'requestContext'>): string {
  const host = event.requestContext?.domainName || 'localhost';
  const proto = event.headers?.['x-forwarded-proto'] === 'http' ? 'http' : 'https';
  return `${proto}://${host}`;
}
