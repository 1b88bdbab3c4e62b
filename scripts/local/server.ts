import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { awsRegion, corsAllowedOrigins, dynamodbEndpoint, localCredentials, searchTableOf, tableName } from '#lib/config.ts';
import { useVariables } from './settings.ts';
import { onRequestLogged, type RequestRecord } from '#lib/http/access-log.ts';
import { allowedOrigin, type CorsConfiguration } from '#lib/http/cors.ts';
import { LAMBDA_RESPONSE_LIMIT_BYTES } from '#lib/http/limits.ts';
import { API_PREFIX, matchSegments, routingPath } from '#lib/routes.ts';
import { DEFAULT_ROUTE_KEY } from '../../infra/route-keys.ts';
import { BundleRuntime } from './bundle-runtime.ts';
import { sourceDeployment, type Deployment, type LocalFunction } from './deployment.ts';
import { gatewayEvent } from './gateway-event.ts';
import { startIamGuard, type Denial, type IamGuard } from './iam-guard.ts';
import { inRegion, tableArn, type PolicyStatement } from './iam-policy.ts';
import { STREAM_READ_ACTIONS, tableStatements, type TableAccess } from '../../infra/permissions.ts';
import { tableStreamArn } from './ensure-table.ts';
import type { FunctionRuntime, InvokeOutcome } from './function-runtime.ts';
import { readRequestBody } from './request-body.ts';
import { SourceRuntime } from './source-runtime.ts';
import { templateDeployment } from './template-deployment.ts';
import { isApiPath, isBuildFile, pageAnswer, siteAnswer, type SiteAnswer } from './site.ts';
import { DEFAULT_SERVER_BUILD, PAGE_QUERY_PARAMETERS, SITE_BUILD_DIR_VARIABLE } from '../../infra/pages.ts';
import { DISTRIBUTION_DOMAIN_HEADER } from '#lib/site/origin.ts';
import { PUBLIC_READS_VARIABLE, SITE_URL_VARIABLE } from '#lib/config.ts';

// The local API Gateway: serves a deployment (from the sources or from cdk.out) over HTTP as an
// HTTP API with payload format 2.0 does on AWS: its routing, its CORS, its size limits and its own
// error answers; each request becomes the event AWS would send, and each function's DynamoDB
// calls pass the IAM guard of its role. With the site (siteRoot), it is also the distribution in
// front of both: the build's files as from the bucket, every other GET and HEAD outside /api/ to
// the page function as its function URL would hand it the request, with what CloudFront adds.
// docs/local-gateway.md lists every behaviour with its AWS source.

/** HTTP API's request payload quota: bigger requests never reach a function. */
export const GATEWAY_MAX_REQUEST_BYTES = 10 * 1024 * 1024;
/** The server build the page function reads when it runs from source (infra/pages.ts DEFAULT_SERVER_BUILD). */
const SOURCE_SERVER_BUILD = DEFAULT_SERVER_BUILD;
/** Lambda's synchronous invocation payload limit: the event, serialized. */
export const LAMBDA_MAX_EVENT_BYTES = 6 * 1024 * 1024;

/** The gateway's own answers (application/json), as HTTP API words them. */
const GATEWAY_ANSWERS = {
  notFound: { status: 404, message: 'Not Found' },
  tooLarge: { status: 413, message: 'Request Entity Too Large' },
  functionError: { status: 500, message: 'Internal Server Error' },
} as const;

export interface ServerOptions {
  port: number;
  host?: string;
  /**
   * Print one readable access-log line per request (with the handler's DynamoDB calls and
   * capacity, from source) in place of the JSON request log lines Lambda writes.
   */
  accessLog?: boolean;
  /**
   * 'source' (default): the handlers from functions/, in this process. 'bundles': the bundles
   * `npm run synth` wrote to cdk.out, each function in processes of its own, with the routes,
   * CORS settings, environment and role policies of the synthesized template.
   */
  target?: 'source' | 'bundles';
  /** The cdk.out folder (bundles). */
  cdkOut?: string;
  /** The stack's name in cdk.out (bundles). */
  stackName?: string;
  /** The Node.js binary the bundles run on; default: this one. */
  node?: string;
  /** Where the bundled functions' logs go; default: discarded. */
  functionOutput?: 'inherit' | 'ignore';
  /**
   * Origins the API's CORS settings allow, as `cdk deploy -c allowedOrigins=...` sets them (the
   * API's and the functions'). Default: the template's; from source, CORS_ALLOWED_ORIGINS or `*`.
   */
  allowedOrigins?: string[];
  /**
   * Replaces functions' table grants, by function name (tests that prove the guard bites); a
   * stream consumer keeps the stream reads of its event source.
   */
  grants?: Record<string, TableAccess>;
  /**
   * Variables over the API functions' environment, as a deploy setting would set them
   * (`PUBLIC_READS: 'true'`): the bundles run with them; the sources, which run in this process,
   * find them in its environment while the server runs (the variables it had come back on close).
   */
  apiEnvironment?: Record<string, string>;
  /**
   * The built site (web/dist) to serve outside /api/, as CloudFront serves it beside the API:
   * its files (scripts/local/site.ts), and the page function for every other path; none: every
   * path is the gateway's.
   */
  siteRoot?: string;
  /** Told of every answer a function gave (not the gateway's own): which route, which function, which status. */
  onFunctionAnswer?: (answered: FunctionAnswered) => void;
}

export interface FunctionAnswered {
  routeKey: string;
  functionName: string;
  status: number;
}

export interface RunningServer {
  url: string;
  deployment: Deployment;
  guard: IamGuard;
  /** Runs the deployment's functions (the stream poller invokes through it too). */
  runtime: FunctionRuntime;
  close(): Promise<void>;
}

interface Handled {
  status: number;
  /** The API Gateway request id of the event, when a function ran. */
  requestId?: string;
}

export type Answer = { status: number; headers: Record<string, string | string[]>; body?: Buffer };

function gatewayAnswer({ status, message }: { status: number; message: string }): Answer {
  return { status, headers: { 'Content-Type': 'application/json' }, body: Buffer.from(JSON.stringify({ message })) };
}

function decodePath(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

/**
 * The segments of a path as sent, each decoded: a slash sent encoded (`%2F`) stays inside its
 * segment, so `/posts/detail/a%2F` is the post route with the slug `a/` (no post), never the
 * post `a` with a trailing slash.
 */
function routingSegments(path: string): string[] {
  return routingPath(path).split('/').map(decodePath);
}

interface RouteChoice {
  routeKey: string;
  functionName: string;
  params?: Record<string, string>;
}

/**
 * HTTP API's route selection: the route of the method whose path matches (a path without
 * parameters before one with them), else `$default`. One trailing slash does not count. `path`
 * is the path as sent (still URL-encoded): it is split at its slashes before it is decoded.
 */
export function selectRoute(routes: Map<string, string>, method: string, path: string): RouteChoice | undefined {
  const segments = routingSegments(path);
  let best: (RouteChoice & { variables: number }) | undefined;
  for (const [routeKey, functionName] of routes) {
    const [routeMethod, pattern] = routeKey.split(' ');
    if (routeMethod !== method || pattern === undefined) continue;
    const params = matchSegments(pattern, segments);
    if (!params) continue;
    const variables = Object.keys(params).length;
    if (!best || variables < best.variables) best = { routeKey, functionName, ...(variables > 0 ? { params } : {}), variables };
  }
  if (best) return { routeKey: best.routeKey, functionName: best.functionName, ...(best.params ? { params: best.params } : {}) };
  const fallback = routes.get(DEFAULT_ROUTE_KEY);
  return fallback === undefined ? undefined : { routeKey: DEFAULT_ROUTE_KEY, functionName: fallback };
}

/** API Gateway adds CORS headers only to a request that has an Origin, one its settings allow. */
function gatewayOrigin(cors: CorsConfiguration, origin: string | undefined): string | undefined {
  return origin ? allowedOrigin(origin, cors.allowOrigins) : undefined;
}

/** A preflight is an OPTIONS request with Origin and Access-Control-Request-Method; the gateway answers it. */
function preflightAnswer(cors: CorsConfiguration, request: IncomingMessage): Answer {
  const origin = gatewayOrigin(cors, request.headers.origin);
  if (!origin) return { status: 204, headers: {} };
  return {
    status: 204,
    headers: {
      'Access-Control-Allow-Origin': origin,
      'Access-Control-Allow-Methods': cors.allowMethods.join(','),
      'Access-Control-Allow-Headers': cors.allowHeaders.join(',').toLowerCase(),
      ...(cors.maxAge ? { 'Access-Control-Max-Age': String(cors.maxAge) } : {}),
    },
  };
}

/**
 * The function's answer as the client gets it: payload 2.0's result, with the integration's CORS
 * headers replaced by the gateway's when the API has CORS settings.
 */
export function functionAnswer(outcome: InvokeOutcome, cors: CorsConfiguration | undefined, origin: string | undefined): Answer {
  if ('error' in outcome || Buffer.byteLength(outcome.payload, 'utf8') > LAMBDA_RESPONSE_LIMIT_BYTES) return gatewayAnswer(GATEWAY_ANSWERS.functionError);
  const result = JSON.parse(outcome.payload) as Record<string, unknown> | null;
  // A result without statusCode is the body itself (payload 2.0's inference).
  if (result === null || typeof result !== 'object' || typeof result.statusCode !== 'number') {
    return { status: 200, headers: { 'Content-Type': 'application/json' }, body: Buffer.from(outcome.payload) };
  }
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries((result.headers ?? {}) as Record<string, unknown>)) {
    if (cors && name.toLowerCase().startsWith('access-control-')) continue;
    headers[name] = String(value);
  }
  if (Array.isArray(result.cookies)) headers['Set-Cookie'] = result.cookies.map(String);
  const allowed = cors ? gatewayOrigin(cors, origin) : undefined;
  if (cors && allowed) {
    headers['Access-Control-Allow-Origin'] = allowed;
    if (cors.exposeHeaders.length > 0) headers['Access-Control-Expose-Headers'] = cors.exposeHeaders.join(',').toLowerCase();
  }
  const body = typeof result.body === 'string' ? Buffer.from(result.body, result.isBase64Encoded ? 'base64' : 'utf8') : undefined;
  return { status: result.statusCode, headers, ...(body ? { body } : {}) };
}

/** `requestId`: the event's, as API Gateway's `apigw-requestid` header is its `$context.requestId`. */
function send(response: ServerResponse, answer: Answer, requestId: string = crypto.randomUUID()): void {
  // A 304 has no body and says nothing of its length: the 200's was sent before.
  const length = answer.status === 304 ? {} : { 'Content-Length': answer.body?.length ?? 0 };
  response.writeHead(answer.status, { ...answer.headers, ...length, 'apigw-requestid': requestId });
  // Node sends no body for HEAD, as the HTTP framing of a HEAD answer allows none.
  response.end(answer.body);
}

const STREAM_ACTIONS = new Set([...STREAM_READ_ACTIONS.anyResource, ...STREAM_READ_ACTIONS.stream].map((action) => `dynamodb:${action}`));
const readsStream = (statement: PolicyStatement) => statement.actions.every((action) => STREAM_ACTIONS.has(action));

/** The deployment a server serves, with any policy the options replace. */
function deploymentFor(options: ServerOptions, streamArn: string): Deployment {
  const region = awsRegion();
  const deployment =
    options.target === 'bundles'
      ? templateDeployment({ cdkOut: options.cdkOut ?? 'cdk.out', stackName: options.stackName ?? 'CommunityPosts', tableName: tableName(), region, streamArn })
      : sourceDeployment({ tableName: tableName(), region, allowedOrigins: options.allowedOrigins ?? corsAllowedOrigins(), streamArn });
  if (options.target === 'bundles' && options.allowedOrigins) {
    deployment.cors = { ...deployment.cors!, allowOrigins: options.allowedOrigins };
    for (const fn of deployment.functions.values()) fn.environment.CORS_ALLOWED_ORIGINS = options.allowedOrigins.join(',');
  }
  for (const fn of deployment.functions.values()) {
    // The page function reads the public-read settings too (its own answers' s-maxage, public reads off).
    if (fn.environment.CORS_ALLOWED_ORIGINS !== undefined || fn.name === deployment.page) Object.assign(fn.environment, options.apiEnvironment);
  }
  for (const [name, access] of Object.entries(options.grants ?? {})) {
    const fn = deployment.functions.get(name);
    if (!fn) throw new Error(`No function ${name} in the deployment`);
    deployment.functions.set(name, {
      ...fn,
      policy: [...tableStatements(access, tableArn(region, tableName()), tableArn(region, searchTableOf(tableName()))), ...fn.policy.filter(readsStream)],
    });
  }
  return deployment;
}

/**
 * The event a Lambda function URL (payload 2.0) hands the page function for a request as the
 * distribution forwards it: the client's headers (lower case) but the distribution's domain
 * header, which the origin does not need locally (SITE_URL names it); no cookie, and only the
 * query parameters of the pages' cache key.
 */
export function pageEvent(request: IncomingMessage, method: string, target: URL, domainName: string): APIGatewayProxyEventV2 {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headersDistinct)) {
    if (!value || name === 'cookie' || name === DISTRIBUTION_DOMAIN_HEADER) continue;
    headers[name] = value.join(',');
  }
  const query = new URLSearchParams();
  for (const [name, value] of target.searchParams) if ((PAGE_QUERY_PARAMETERS as readonly string[]).includes(name)) query.append(name, value);
  const event = gatewayEvent({
    method,
    routeKey: '$default',
    rawPath: target.pathname,
    rawQuery: query.toString(),
    headers,
    protocol: `HTTP/${request.httpVersion}`,
    sourceIp: request.socket.remoteAddress ?? '127.0.0.1',
    domainName,
  });
  return { ...event, requestContext: { ...event.requestContext, accountId: 'anonymous' } };
}

/** ` ddb=3 rcu=1.5 wcu=2`: what the request cost in DynamoDB. */
function usageNote(record: RequestRecord | undefined): string {
  if (!record) return '';
  const { read, write } = record.consumedCapacity;
  return ` ddb=${record.dynamodbCalls}${record.dynamodbCalls > 0 ? ` rcu=${read} wcu=${write}` : ''}`;
}

export async function startServer(options: ServerOptions): Promise<RunningServer> {
  const upstream = dynamodbEndpoint();
  if (!upstream) throw new Error('DYNAMODB_ENDPOINT is not set: the local stack needs DynamoDB Local.');
  // The table's stream, as CloudFormation resolves the table's StreamArn for the roles and mappings.
  const stream = await tableStreamArn(tableName());
  if (!stream) throw new Error(`The table ${tableName()} has no stream: scripts/local/ensure-table.ts gives it the one lib/db/table.ts defines.`);
  const deployment = deploymentFor(options, inRegion(stream, awsRegion()));
  const restoreVariables = options.target === 'bundles' ? () => undefined : useVariables(options.apiEnvironment ?? {});
  const guard = await startIamGuard({
    upstream,
    region: awsRegion(),
    policies: new Map([...deployment.functions.values()].map((fn) => [fn.name, fn.policy])),
    // The key this process created the table with, as the admin CLI and the seed sign.
    upstreamAccessKeyId: localCredentials().accessKeyId,
    onDenial: (denial: Denial) =>
      console.error(`IAM: ${denial.identity} may not ${denial.permission.action} on ${denial.permission.resource} (AccessDeniedException)`),
  });
  const runtime: FunctionRuntime =
    options.target === 'bundles'
      ? new BundleRuntime({
          guardUrl: guard.url,
          region: awsRegion(),
          output: options.functionOutput ?? 'ignore',
          ...(options.node ? { node: options.node } : {}),
        })
      : new SourceRuntime(guard.url);

  // A function URL has no CORS settings of the API: the page function's headers pass as they are.
  const invoke = async (fn: LocalFunction, event: APIGatewayProxyEventV2, origin: string | undefined, cors = true): Promise<Answer> => {
    if (Buffer.byteLength(JSON.stringify(event), 'utf8') > LAMBDA_MAX_EVENT_BYTES) return gatewayAnswer(GATEWAY_ANSWERS.tooLarge);
    const answer = functionAnswer(await runtime.invoke(fn, event, event.requestContext.requestId), cors ? deployment.cors : undefined, origin);
    options.onFunctionAnswer?.({ routeKey: event.routeKey, functionName: fn.name, status: answer.status });
    return answer;
  };

  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<Handled> => {
    const target = new URL(request.url ?? '/', 'http://localhost');
    // HTTP API hands functions the path URL-decoded, rawPath included.
    const rawPath = decodePath(target.pathname);
    const rawQuery = target.search.slice(1);
    const method = (request.method ?? 'GET').toUpperCase();
    if (options.siteRoot && (method === 'GET' || method === 'HEAD') && !isApiPath(target.pathname)) {
      const conditions = {
        method,
        publicReads: page?.environment[PUBLIC_READS_VARIABLE]?.trim().toLowerCase() === 'true',
        ...(request.headers['accept-encoding'] ? { acceptEncoding: request.headers['accept-encoding'] } : {}),
        ...(request.headers['if-none-match'] ? { ifNoneMatch: request.headers['if-none-match'] } : {}),
      };
      let answer: SiteAnswer;
      let requestId: string | undefined;
      if (isBuildFile(options.siteRoot, target.pathname) || !page) {
        answer = siteAnswer(options.siteRoot, { ...conditions, path: target.pathname });
      } else {
        const event = pageEvent(request, method, target, listening());
        requestId = event.requestContext.requestId;
        answer = pageAnswer(await invoke(page, event, undefined, false), conditions);
      }
      response.writeHead(answer.status, answer.headers);
      response.end(answer.body);
      return { status: answer.status, ...(requestId ? { requestId } : {}) };
    }
    if (method === 'OPTIONS' && deployment.cors && request.headers.origin && request.headers['access-control-request-method']) {
      const answer = preflightAnswer(deployment.cors, request);
      send(response, answer);
      return { status: answer.status };
    }
    const body = await readRequestBody(request, GATEWAY_MAX_REQUEST_BYTES);
    if (body === 'too-large') {
      send(response, gatewayAnswer(GATEWAY_ANSWERS.tooLarge));
      return { status: 413 };
    }
    const route = selectRoute(deployment.routes, method, target.pathname);
    const fn = route && deployment.functions.get(route.functionName);
    if (!route || !fn) {
      send(response, gatewayAnswer(GATEWAY_ANSWERS.notFound));
      return { status: 404 };
    }
    const headers: Record<string, string> = {};
    let cookies: string[] | undefined;
    for (const [name, value] of Object.entries(request.headersDistinct)) {
      if (!value) continue;
      if (name === 'cookie') cookies = value.flatMap((line) => line.split(/;\s*/));
      else headers[name] = value.join(',');
    }
    headers['x-forwarded-port'] ??= String(request.socket.localPort ?? '');
    const event = gatewayEvent({
      method,
      routeKey: route.routeKey,
      rawPath,
      rawQuery,
      headers,
      ...(cookies ? { cookies } : {}),
      ...(route.params ? { params: route.params } : {}),
      body,
      protocol: `HTTP/${request.httpVersion}`,
      sourceIp: request.socket.remoteAddress ?? '127.0.0.1',
      domainName: listening(),
    });
    const answer = await invoke(fn, event, request.headers.origin);
    send(response, answer, event.requestContext.requestId);
    return { status: answer.status, requestId: event.requestContext.requestId };
  };

  // The source handlers' request records, kept until the server prints the request's line.
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
        console.error('local gateway error', error);
        if (!response.headersSent) send(response, gatewayAnswer(GATEWAY_ANSWERS.functionError));
      });
  });
  server.keepAliveTimeout = 5000;
  const host = options.host ?? '127.0.0.1';
  // The host links name (requestContext.domainName): the address this server listens on.
  const listening = () => `${host.includes(':') ? `[${host}]` : host}:${(server.address() as AddressInfo).port}`;
  await new Promise<void>((done, fail) => {
    server.once('error', fail);
    server.listen(options.port, host, () => done());
  });
  const { port } = server.address() as AddressInfo;
  // The page function's origin is this server's address, unless the settings name one (bundles:
  // the template's SITE_URL). From source it runs in this process: the variables go in its
  // environment (the API's functions there see SITE_URL too, as deployed they get the site's),
  // with the server build read from web/dist-server (a bundle carries its own, in site/).
  const page = options.siteRoot && deployment.page ? deployment.functions.get(deployment.page) : undefined;
  let restorePageVariables = () => undefined as void;
  if (page) {
    page.environment[SITE_URL_VARIABLE] ??= `http://${listening()}`;
    if (options.target !== 'bundles') {
      page.environment[SITE_BUILD_DIR_VARIABLE] = SOURCE_SERVER_BUILD;
      restorePageVariables = useVariables({
        [SITE_URL_VARIABLE]: page.environment[SITE_URL_VARIABLE],
        [SITE_BUILD_DIR_VARIABLE]: SOURCE_SERVER_BUILD,
      });
    }
  }
  return {
    url: `http://${host}:${port}${API_PREFIX}`,
    deployment,
    guard,
    runtime,
    close: async () => {
      if (options.accessLog) onRequestLogged(undefined);
      restorePageVariables();
      restoreVariables();
      await new Promise<void>((closed) => {
        server.close(() => closed());
        server.closeAllConnections();
      });
      await runtime.close();
      await guard.close();
    },
  };
}
