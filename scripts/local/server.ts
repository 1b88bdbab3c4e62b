import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { onRequestLogged, type RequestRecord } from '../../lib/http/access-log.ts';
import { preflightHeaders } from '../../lib/http/cors.ts';
import { API_PREFIX, FALLBACK_HANDLER, matchRoute } from '../../lib/routes.ts';
import { gatewayEvent, lambdaContext } from './gateway-event.ts';

// Serves the Lambda handlers over HTTP the way API Gateway HTTP API (payload v2) does: each
// request becomes the event API Gateway would send, and the handler's result becomes the answer.

/** API Gateway's own request size limit: bigger requests never reach a function. */
const GATEWAY_MAX_BODY_BYTES = 10 * 1024 * 1024;

type LambdaHandler = (event: APIGatewayProxyEventV2, context: Context) => Promise<APIGatewayProxyStructuredResultV2>;

const modules = new Map<string, Promise<LambdaHandler>>();

function loadHandler(name: string): Promise<LambdaHandler> {
  let loaded = modules.get(name);
  if (!loaded) {
    const file = new URL(`../../functions/${name}.ts`, import.meta.url).href;
    loaded = import(/* @vite-ignore */ file).then((module: { handler: LambdaHandler }) => module.handler);
    modules.set(name, loaded);
  }
  return loaded;
}

function decodePath(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

function readBody(request: IncomingMessage): Promise<Buffer | 'too-large'> {
  return new Promise((done, fail) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= GATEWAY_MAX_BODY_BYTES) chunks.push(chunk);
    });
    request.on('end', () => done(size > GATEWAY_MAX_BODY_BYTES ? 'too-large' : Buffer.concat(chunks)));
    request.on('error', fail);
  });
}

function toEvent(request: IncomingMessage, body: Buffer, routeKey: string, rawPath: string, rawQuery: string, params?: Record<string, string>): APIGatewayProxyEventV2 {
  const headers: Record<string, string> = {};
  let cookies: string[] | undefined;
  for (const [name, value] of Object.entries(request.headersDistinct)) {
    if (!value) continue;
    if (name === 'cookie') cookies = value.flatMap((line) => line.split(/;\s*/));
    else headers[name] = value.join(',');
  }
  return gatewayEvent({
    method: request.method ?? 'GET',
    routeKey,
    rawPath,
    rawQuery,
    headers,
    ...(cookies ? { cookies } : {}),
    ...(params ? { params } : {}),
    body,
    protocol: `HTTP/${request.httpVersion}`,
    sourceIp: request.socket.remoteAddress ?? '127.0.0.1',
  });
}

function send(response: ServerResponse, result: APIGatewayProxyStructuredResultV2): void {
  const body = result.body === undefined ? undefined : Buffer.from(result.body, result.isBase64Encoded ? 'base64' : 'utf8');
  response.writeHead(result.statusCode ?? 200, { ...result.headers, ...(body ? { 'Content-Length': body.length } : {}) } as Record<string, string | number>);
  response.end(body);
}

export interface ServerOptions {
  port: number;
  host?: string;
  /**
   * Print one readable access-log line per request (with the handler's DynamoDB calls and
   * capacity) in place of the JSON request log lines Lambda writes; off: the JSON lines are
   * written, at LOG_LEVEL info.
   */
  accessLog?: boolean;
}

export interface RunningServer {
  url: string;
  close(): Promise<void>;
}

interface Handled {
  status: number;
  /** The API Gateway request id of the event, when a handler ran. */
  requestId?: string;
}

async function handle(request: IncomingMessage, response: ServerResponse): Promise<Handled> {
  const target = new URL(request.url ?? '/', 'http://localhost');
  const rawPath = decodePath(target.pathname);
  const rawQuery = target.search.slice(1);
  const method = (request.method ?? 'GET').toUpperCase();
  if (method === 'OPTIONS') {
    // API Gateway answers preflight requests from the API's CORS configuration.
    response.writeHead(204, preflightHeaders(request.headers.origin));
    response.end();
    return { status: 204 };
  }
  const body = await readBody(request);
  if (body === 'too-large') {
    send(response, { statusCode: 413, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ message: 'Request Entity Too Large' }) });
    return { status: 413 };
  }
  const match = matchRoute(method, rawPath);
  const [name, routeKey, params] =
    match.kind === 'route' ? [match.route.handler, `${match.route.method} ${API_PREFIX}${match.route.path}`, match.params] : [FALLBACK_HANDLER, '$default', undefined];
  const event = toEvent(request, body, routeKey, rawPath, rawQuery, params);
  const handler = await loadHandler(name);
  const result = await handler(event, lambdaContext(name.replace('/', '-'), event.requestContext.requestId));
  send(response, result);
  return { status: result.statusCode ?? 200, requestId: event.requestContext.requestId };
}

/** ` ddb=3 rcu=1.5 wcu=2`: what the request cost in DynamoDB. */
function usageNote(record: RequestRecord | undefined): string {
  if (!record) return '';
  const { read, write } = record.consumedCapacity;
  return ` ddb=${record.dynamodbCalls}${record.dynamodbCalls > 0 ? ` rcu=${read} wcu=${write}` : ''}`;
}

export function startServer(options: ServerOptions): Promise<RunningServer> {
  // The handlers' request records, kept until the server prints the request's line.
  const records = new Map<string, RequestRecord>();
  if (options.accessLog) onRequestLogged((record) => records.set(record.requestId, record));
  const server = createServer((request, response) => {
    const started = performance.now();
    handle(request, response)
      .then(({ status, requestId }) => {
        const record = requestId === undefined ? undefined : records.get(requestId);
        if (requestId !== undefined) records.delete(requestId);
        if (options.accessLog) {
          const ms = (performance.now() - started).toFixed(1);
          console.log(`${new Date().toISOString()} ${request.method} ${request.url} ${status} ${ms}ms${usageNote(record)}`);
        }
      })
      .catch((error: unknown) => {
        console.error('local server error', error);
        if (!response.headersSent) send(response, { statusCode: 502, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ message: 'Internal Server Error' }) });
      });
  });
  server.keepAliveTimeout = 5000;
  return new Promise((done, fail) => {
    server.once('error', fail);
    server.listen(options.port, options.host ?? '127.0.0.1', () => {
      const address = server.address() as AddressInfo;
      done({
        url: `http://${options.host ?? '127.0.0.1'}:${address.port}${API_PREFIX}`,
        close: () =>
          new Promise<void>((closed) => {
            if (options.accessLog) onRequestLogged(undefined);
            server.close(() => closed());
            server.closeAllConnections();
          }),
      });
    });
  });
}
