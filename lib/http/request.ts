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
 * The header the stack's CloudFront distribution sets on every `/api/*` request to the viewer's
 * Host (a viewer-request function, infra/site.ts), overwriting whatever the client sent under
 * that name. Origin requests through CloudFront carry the API Gateway domain as their Host, so
 * this is how the links learn the site's host.
 */
export const VIEWER_HOST_HEADER = 'x-viewer-host';

/** A host name or address with an optional port: what a Host header may hold, nothing else. */
const HOST_VALUE = /^[a-z0-9.-]+(:[0-9]{1,5})?$/i;

/**
 * `scheme://host` of the API as the request reached it, for the links the service writes (Link,
 * the feed, the OpenAPI servers): through the distribution, the viewer's host as the
 * distribution passes it on (VIEWER_HOST_HEADER); else the host API Gateway reports
 * (requestContext.domainName: the API's own or custom domain; locally the address npm start
 * listens on). Never a header a client chooses such as X-Forwarded-Host, so that a cached answer
 * cannot carry one client's host to others: a client that calls API Gateway directly could set
 * VIEWER_HOST_HEADER itself, but only for its own answer, which no shared cache of the stack keeps
 * (docs/security.md). The scheme is API Gateway's X-Forwarded-Proto: https unless it says http
 * (locally).
 */
export function requestBase(event: Pick<APIGatewayProxyEventV2, 'headers' | 'requestContext'>): string {
  const viewerHost = event.headers?.[VIEWER_HOST_HEADER];
  const host = (viewerHost && HOST_VALUE.test(viewerHost) ? viewerHost : undefined) || event.requestContext?.domainName || 'localhost';
  const proto = event.headers?.['x-forwarded-proto'] === 'http' ? 'http' : 'https';
  return `${proto}://${host}`;
}
