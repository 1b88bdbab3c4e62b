import { CURSOR_SECRET_VARIABLE, DEFAULT_SITE_NAME, DEVELOPMENT_CURSOR_SECRET, SITE_NAME_VARIABLE, searchTableOf } from '#lib/config.ts';
import { corsConfiguration, type CorsConfiguration } from '#lib/http/cors.ts';
import { FALLBACK_HANDLER, ROUTES, functionName, routeKeys } from '#lib/routes.ts';
import { streamStatements, tableAccess, tableStatements } from '../../infra/permissions.ts';
import { DEFAULT_LIMITS, limitsEnvironment } from '../../infra/limits.ts';
import { DEFAULT_PUBLIC_READS, publicReadsEnvironment } from '../../infra/public-reads.ts';
import { DEFAULT_ROUTE_KEY } from '../../infra/route-keys.ts';
import { PAGE_HANDLER } from '../../infra/pages.ts';
import { TABLE_STREAM_CONSUMER, type StreamEventSourceSettings } from '../../infra/streams.ts';
import { tableArn, type PolicyStatement } from './iam-policy.ts';

// What the local stack runs: the same description of the deployment whether it comes from the
// sources (the route table, infra/permissions.ts, infra/streams.ts and the CORS settings the stack
// is built from) or from the synthesized template in cdk.out (template-deployment.ts): the
// gateway's routes and functions, and the event source mappings the stream poller plays.
// test/infra/stack.test.ts checks that the two agree.

export type FunctionCode =
  /** A module under functions/, run in the server's process (npm start, npm test). */
  | { kind: 'source'; handler: string }
  /** A bundle from cdk.out: `file` exports `export` (index.mjs, handler). */
  | { kind: 'bundle'; directory: string; file: string; export: string };

export interface LocalFunction {
  /** The function's name in the stack; it signs its DynamoDB requests with this access key. */
  name: string;
  code: FunctionCode;
  /** The environment the stack gives it (bundles run with exactly this, plus what Lambda adds). */
  environment: Record<string, string>;
  /** Its role's DynamoDB statements. */
  policy: PolicyStatement[];
  /** From the template; the sources leave the stack's defaults to it. */
  memorySize?: number;
  timeoutSeconds?: number;
}

/** An event source mapping on the table's stream (scripts/local/stream-poller.ts plays it). */
export interface LocalEventSource extends Omit<StreamEventSourceSettings, 'handler'> {
  /** The function it invokes. */
  functionName: string;
  /** The stream, as its ARN is written in the region (not DynamoDB Local's `ddblocal` one). */
  streamArn: string;
  /** Whether Lambda describes a batch it gives up on to an on-failure destination. */
  onFailureDestination: boolean;
}

export interface Deployment {
  /** Route key (`GET /api/v1/posts`, `$default`) → function name. */
  routes: Map<string, string>;
  cors?: CorsConfiguration;
  functions: Map<string, LocalFunction>;
  eventSources: LocalEventSource[];
  /** The page function (behind the distribution's default behaviour, through its function URL): the site's pages. */
  page?: string;
}

export interface SourceDeploymentOptions {
  tableName: string;
  region: string;
  allowedOrigins: string[];
  /** The table's stream (its ARN in the region): what the stream consumer's role may read. */
  streamArn: string;
}

/** The local values of the secrets the stack generates at deploy time, by the variable that carries each. */
export const LOCAL_SECRET_VALUES: Readonly<Record<string, string>> = { [CURSOR_SECRET_VARIABLE]: DEVELOPMENT_CURSOR_SECRET };

/** The deployment as infra/stack.ts builds it, with the handlers run from source. */
export function sourceDeployment(options: SourceDeploymentOptions): Deployment {
  const arn = tableArn(options.region, options.tableName);
  const searchArn = tableArn(options.region, searchTableOf(options.tableName));
  const functions = new Map<string, LocalFunction>();
  const routes = new Map<string, string>();
  const siteVariables = { [SITE_NAME_VARIABLE]: DEFAULT_SITE_NAME, ...publicReadsEnvironment(DEFAULT_PUBLIC_READS) };
  const define = (handler: string, usesTable: boolean, policy: PolicyStatement[], kind: 'api' | 'page' | 'consumer' = 'api', paged = false) => {
    const name = functionName(handler);
    functions.set(name, {
      name,
      code: { kind: 'source', handler },
      environment: {
        ...(usesTable ? { TABLE_NAME: options.tableName } : {}),
        // As the stack's grantTable: the search table is named to the functions that may use it.
        ...(policy.some((statement) => statement.resources.includes(searchArn)) ? { SEARCH_TABLE_NAME: searchTableOf(options.tableName) } : {}),
        NODE_OPTIONS: '--enable-source-maps',
        ...(kind === 'api' ? { CORS_ALLOWED_ORIGINS: options.allowedOrigins.join(','), ...limitsEnvironment(DEFAULT_LIMITS) } : {}),
        ...(kind === 'consumer' ? {} : siteVariables),
        ...(paged ? { [CURSOR_SECRET_VARIABLE]: LOCAL_SECRET_VALUES[CURSOR_SECRET_VARIABLE]! } : {}),
      },
      policy,
    });
    return name;
  };
  routes.set(DEFAULT_ROUTE_KEY, define(FALLBACK_HANDLER, true, []));
  for (const route of ROUTES) {
    const name = define(route.handler, route.access !== 'none', tableStatements(tableAccess(route), arn, searchArn), 'api', route.paged === true);
    for (const key of routeKeys(route)) routes.set(key, name);
  }
  // The stream consumer: its code's table actions and the stream reads of its event source.
  const { handler, ...mapping } = TABLE_STREAM_CONSUMER;
  const consumer = define(
    handler,
    true,
    [...tableStatements(tableAccess({ handler, access: 'read-write' }), arn, searchArn), ...streamStatements(options.streamArn)],
    'consumer',
  );
  const page = define(PAGE_HANDLER, true, tableStatements(tableAccess({ handler: PAGE_HANDLER, access: 'read' }), arn, searchArn), 'page');
  const eventSources = [{ functionName: consumer, streamArn: options.streamArn, ...mapping, onFailureDestination: true }];
  return { routes, cors: corsConfiguration(options.allowedOrigins), functions, eventSources, page };
}
