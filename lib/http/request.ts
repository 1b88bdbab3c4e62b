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
