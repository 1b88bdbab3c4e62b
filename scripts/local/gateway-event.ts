import { randomUUID } from 'node:crypto';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';

// What API Gateway HTTP API (payload v2) hands a function, and the context Lambda adds: built
// from the parts of a request, for the local server and for the benchmark's in-process calls.
// docs/local-gateway.md lists each behaviour with its AWS source.

/**
 * The bodies HTTP API passes as text: text/*, JSON, XML and JavaScript, with no parameter but a
 * UTF-8 charset. Everything else, form-urlencoded and a body without Content-Type included,
 * arrives base64-encoded with isBase64Encoded: true.
 */
const TEXT_TYPE = /^(text\/[^;\s]+|application\/(json|xml|javascript))\s*(;\s*charset="?utf-8"?\s*)?$/i;

const isTextBody = (contentType: string | undefined): boolean => TEXT_TYPE.test((contentType ?? '').trim());

export interface RequestParts {
  method: string;
  /** `GET /api/v1/posts/detail/{slug}`, or `$default`. */
  routeKey: string;
  rawPath: string;
  rawQuery: string;
  /** Lower-case names; repeated headers joined with commas, as API Gateway joins them. */
  headers: Record<string, string>;
  cookies?: string[];
  params?: Record<string, string>;
  body?: Buffer;
  protocol?: string;
  sourceIp?: string;
  /**
   * The API's host as API Gateway reports it (requestContext.domainName): locally the address the
   * server listens on (`127.0.0.1:3000`), never the client's Host header. Default `localhost`.
   */
  domainName?: string;
}

function isUtf8(buffer: Buffer): boolean {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(buffer);
    return true;
  } catch {
    return false;
  }
}

export function gatewayEvent(parts: RequestParts): APIGatewayProxyEventV2 {
  const headers = { ...parts.headers };
  headers['x-forwarded-proto'] ??= 'http';
  headers['x-forwarded-for'] ??= parts.sourceIp ?? '127.0.0.1';
  const query: Record<string, string> = {};
  for (const [name, value] of new URLSearchParams(parts.rawQuery)) query[name] = name in query ? `${query[name]},${value}` : value;
  const body = parts.body ?? Buffer.alloc(0);
  const text = isTextBody(headers['content-type']) && isUtf8(body);
  const now = new Date();
  return {
    version: '2.0',
    routeKey: parts.routeKey,
    rawPath: parts.rawPath,
    rawQueryString: parts.rawQuery,
    ...(parts.cookies ? { cookies: parts.cookies } : {}),
    headers,
    ...(Object.keys(query).length ? { queryStringParameters: query } : {}),
    ...(parts.params ? { pathParameters: parts.params } : {}),
    requestContext: {
      accountId: 'local',
      apiId: 'local',
      domainName: parts.domainName ?? 'localhost',
      domainPrefix: (parts.domainName ?? 'localhost').split('.')[0]!,
      http: {
        method: parts.method,
        path: parts.rawPath,
        protocol: parts.protocol ?? 'HTTP/1.1',
        sourceIp: parts.sourceIp ?? '127.0.0.1',
        userAgent: headers['user-agent'] ?? '',
      },
      requestId: randomUUID(),
      routeKey: parts.routeKey,
      stage: '$default',
      time: now.toUTCString(),
      timeEpoch: now.getTime(),
    },
    // No body: no `body` key at all.
    ...(body.length > 0 ? { body: text ? body.toString('utf8') : body.toString('base64'), isBase64Encoded: !text } : { isBase64Encoded: false }),
  };
}

export function lambdaContext(name: string, requestId: string): Context {
  const deadline = Date.now() + 30_000;
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName: name,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:local:000000000000:function:${name}`,
    memoryLimitInMB: '1024',
    awsRequestId: requestId,
    logGroupName: `/aws/lambda/${name}`,
    logStreamName: 'local',
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}
