import { PUBLIC_CACHE_SECONDS_VARIABLE, PUBLIC_READS_VARIABLE } from '#lib/config.ts';

// The settings of the local tools (npm start, the seed, the admin CLI, the bench and load
// scripts, the tests' stack): the environment they read and set, apart from the functions'
// runtime configuration (lib/config.ts), so that nothing here reaches a function's bundle. The
// tools change the environment through the setters below, never by writing process.env themselves.

const env = process.env;

/** The public-read variables this environment sets (`PUBLIC_READS=true npm start`), by name: what the local functions get over the stack's defaults. */
export function publicReadVariables(): Record<string, string> {
  const names = [PUBLIC_READS_VARIABLE, PUBLIC_CACHE_SECONDS_VARIABLE];
  return Object.fromEntries(names.flatMap((name) => (env[name]?.trim() ? [[name, env[name].trim()]] : [])));
}

/** Sets these variables in this process's environment (the local stack's sources read them there); the returned function puts back what they were. */
export function useVariables(variables: Record<string, string>): () => void {
  const before = Object.fromEntries(Object.keys(variables).map((name) => [name, env[name]]));
  Object.assign(env, variables);
  return () => {
    for (const [name, value] of Object.entries(before)) {
      if (value === undefined) delete env[name];
      else env[name] = value;
    }
  };
}

/** Sets the table and DynamoDB endpoint this process uses (the local tools and the tests). */
export function useTable(settings: { tableName?: string; endpoint?: string }): void {
  if (settings.tableName !== undefined) env.TABLE_NAME = settings.tableName;
  if (settings.endpoint !== undefined) env.DYNAMODB_ENDPOINT = settings.endpoint;
}

/** Points this process at DynamoDB itself (the admin CLI's `--aws`): no local endpoint. */
export function useAwsEndpoint(): void {
  delete env.DYNAMODB_ENDPOINT;
}

/** Lambda's setting for concurrent invocations in one environment (managed instances). */
const CONCURRENCY_VARIABLE = 'AWS_LAMBDA_MAX_CONCURRENCY';

/**
 * Declares that this process runs several invocations at once (the local stack's handlers from
 * source), as Lambda does on managed instances: Powertools then keeps per-invocation state in the
 * runtime's InvokeStore, which the caller must have installed.
 */
export function runConcurrentInvocations(max: number): void {
  env[CONCURRENCY_VARIABLE] ??= String(max);
}

/**
 * The AWS SDK's switch for its 9-line warning, on every client it builds under Node.js < 22, that
 * later SDK versions will need Node.js 22. The functions run on Node.js 22 in Lambda; the local
 * tools may run on Node.js 20, where the warning says nothing the operator can act on.
 */
const SDK_NODE_WARNING_VARIABLE = 'AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED';

/** Turns that warning off in this process (each script's first import, scripts/local/tool.ts). */
export function silenceSdkNodeVersionWarning(): void {
  env[SDK_NODE_WARNING_VARIABLE] = 'true';
}

/**
 * The environment for a child process of the local tools: this process's, with `extra` over it,
 * and the AWS SDK's Node.js version warning off. Not this process's concurrent invocations: a
 * child that runs handlers installs its own store.
 */
export function childEnvironment(extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const inherited = { ...env };
  delete inherited[CONCURRENCY_VARIABLE];
  return { ...inherited, ...extra, [SDK_NODE_WARNING_VARIABLE]: 'true' };
}

/** The command search path alone: for a child that must see nothing else of this environment. */
export function searchPath(): string | undefined {
  return env.PATH;
}

/** Settings of the local tools (`npm start`, `npm run seed`, the admin CLI). */
export function localSettings() {
  const port = Number(env.PORT || 3000);
  const dynamodbPort = Number(env.DYNAMODB_PORT || 8000);
  return {
    /** The local API's port: PORT, default 3000. */
    port,
    /** DynamoDB Local's port: DYNAMODB_PORT, default 8000. */
    dynamodbPort,
    /** DynamoDB Local keeps its data in memory only (IN_MEMORY=1), not in .data/. */
    inMemory: env.IN_MEMORY === '1',
    /** The readable access log of `npm start` (ACCESS_LOG=0 turns it off). */
    accessLog: env.ACCESS_LOG !== '0',
    /** A Node.js 22 binary to run the bundles on (Lambda's runtime), if set. */
    lambdaNode: env.LAMBDA_NODE || undefined,
    /** The running local API, for the seed: API_URL, default http://127.0.0.1:$PORT/api/v1. */
    apiUrl: (env.API_URL || `http://127.0.0.1:${port}/api/v1`).replace(/\/+$/, ''),
    /** The DynamoDB endpoint the local tools use by default. */
    defaultDynamodbEndpoint: `http://127.0.0.1:${dynamodbPort}`,
  };
}

/**
 * The settings of the local tools that this environment sets (PORT, DYNAMODB_PORT,
 * DYNAMODB_ENDPOINT, TABLE_NAME), by name: what `npm start` repeats in the commands it suggests,
 * so that `npm run seed` and the admin CLI reach the same API and table.
 */
export function localToolVariables(): Record<string, string> {
  const names = ['PORT', 'DYNAMODB_PORT', 'DYNAMODB_ENDPOINT', 'TABLE_NAME'];
  return Object.fromEntries(names.flatMap((name) => (env[name] ? [[name, env[name]]] : [])));
}

/** Sets each of these environment settings that is unset or empty (the local tools' defaults). */
export function useDefaults(settings: Record<string, string>): void {
  for (const [name, value] of Object.entries(settings)) env[name] ||= value;
}
