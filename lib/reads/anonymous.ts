import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { batchGet, BatchResult } from '#lib/db/batch.ts';
import { EMPTY_BODY } from '#lib/http/body.ts';
import type { PublicReadRoute } from '#lib/http/endpoint.ts';
import { apiRequest } from '#lib/http/request.ts';
import { errorResult } from '#lib/http/respond.ts';
import { readKey, type PreloadedAnswer } from '#lib/site/reads.ts';

// A public read asked as a reader without an account, in the process that asks (the page
// function): the route's own reads and answer (lib/reads/routes.ts), without the HTTP layer's
// logging, metrics and caching headers, which belong to the API's own requests.

export interface VisitorRead {
  /** The API path under /api/v1, its parameters already in it (URL-encoded). */
  path: string;
  /** The route's path parameters, decoded. */
  params?: Record<string, string>;
  query?: Record<string, string | number>;
  /** The site's address: the host of the links the answer writes (a list's Link header). */
  origin: string;
  /** The route's reads, when the caller has already read them. */
  items?: BatchResult;
}

/** The headers of an answer the app reads (a list's count and next page). */
const KEPT_HEADERS = ['X-Total-Count', 'Link'];

/** The answer of `route` to a visitor's GET of `read`, as the API would give it (status, the headers the app reads, body). */
export async function readAsVisitor<T, P>(route: PublicReadRoute<T, P>, read: VisitorRead): Promise<{ key: string; answer: PreloadedAnswer }> {
  const key = readKey(read.path, read.query);
  const url = new URL(`/api/v1${key}`, read.origin);
  const event = {
    version: '2.0',
    routeKey: `GET ${read.path}`,
    rawPath: url.pathname,
    rawQueryString: url.search.slice(1),
    headers: { host: url.host, 'x-forwarded-proto': url.protocol === 'http:' ? 'http' : 'https' },
    pathParameters: read.params ?? {},
    isBase64Encoded: false,
    requestContext: { domainName: url.host, http: { method: 'GET', path: url.pathname, protocol: 'HTTP/1.1', sourceIp: '', userAgent: '' } },
  } as unknown as APIGatewayProxyEventV2;
  const request = apiRequest(event, EMPTY_BODY);
  let result;
  try {
    const prepared = route.prepare?.(request) as P;
    const keys = route.reads?.(request, prepared) ?? [];
    const [items, alongside] = await Promise.all([
      read.items ?? (keys.length > 0 ? batchGet(keys) : BatchResult.EMPTY),
      route.alongside?.(request) as Promise<T> | undefined,
    ]);
    result = await route.handler({ ...request, caller: null, read: items, prepared, alongside: alongside as T });
  } catch (error) {
    result = errorResult(error, { route: event.routeKey });
  }
  const headers: Record<string, string> = {};
  for (const name of KEPT_HEADERS) {
    const value = result.headers?.[name];
    if (value !== undefined) headers[name] = value;
  }
  return { key, answer: { status: result.status, headers, body: result.body } };
}
