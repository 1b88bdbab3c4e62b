import { corsConfiguration, type CorsConfiguration } from '#lib/http/cors.ts';
import { FALLBACK_HANDLER, ROUTES, functionName, routeKeys } from '#lib/routes.ts';
import { tableAccess, tableStatements } from '../../infra/permissions.ts';
import { DEFAULT_ROUTE_KEY } from '../../infra/route-keys.ts';
import { tableArn, type PolicyStatement } from './iam-policy.ts';

// What the local gateway serves: the same description of the deployment whether it comes from the
// sources (the route table, infra/permissions.ts and the CORS settings the stack is built from)
// or from the synthesized template in cdk.out (template-deployment.ts). test/infra/stack.test.ts
// checks that the two agree.

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

export interface Deployment {
  /** Route key (`GET /api/v1/posts`, `$default`) → function name. */
  routes: Map<string, string>;
  cors?: CorsConfiguration;
  functions: Map<string, LocalFunction>;
}

export interface SourceDeploymentOptions {
  tableName: string;
  region: string;
  allowedOrigins: string[];
}

/** The deployment as infra/stack.ts builds it, with the handlers run from source. */
export function sourceDeployment(options: SourceDeploymentOptions): Deployment {
  const arn = tableArn(options.region, options.tableName);
  const functions = new Map<string, LocalFunction>();
  const routes = new Map<string, string>();
  const define = (handler: string, usesTable: boolean, policy: PolicyStatement[]) => {
    const name = functionName(handler);
    functions.set(name, {
      name,
      code: { kind: 'source', handler },
      environment: {
        ...(usesTable ? { TABLE_NAME: options.tableName } : {}),
        NODE_OPTIONS: '--enable-source-maps',
        CORS_ALLOWED_ORIGINS: options.allowedOrigins.join(','),
      },
      policy,
    });
    return name;
  };
  routes.set(DEFAULT_ROUTE_KEY, define(FALLBACK_HANDLER, true, []));
  for (const route of ROUTES) {
    const name = define(route.handler, route.access !== 'none', tableStatements(tableAccess(route), arn));
    for (const key of routeKeys(route)) routes.set(key, name);
  }
  return { routes, cors: corsConfiguration(options.allowedOrigins), functions };
}
