// The one module that reads the environment. Settings are read on use, so tests and the local
// server can point one process at another table without reloading modules; scripts change them
// through the setters below, never by writing process.env themselves.

const env = process.env;

const positive = (name: string, fallback: number): number => {
  const value = Number(env[name]);
  return Number.isFinite(value) && value > 0 ? value : fallback;
};

export function tableName(): string {
  return env.TABLE_NAME || 'community-posts';
}

export function tokenTtlDays(): number {
  return positive('TOKEN_TTL_DAYS', 30);
}

/** Allowed CORS origins: a comma-separated list, or `*` (the default). */
export function corsAllowedOrigins(): string[] {
  const raw = env.CORS_ALLOWED_ORIGINS?.trim();
  if (!raw) return ['*'];
  return raw.split(',').map((o) => o.trim()).filter(Boolean);
}

export function awsRegion(): string {
  return env.AWS_REGION || 'us-east-1';
}

export function dynamodbEndpoint(): string | undefined {
  return env.DYNAMODB_ENDPOINT || undefined;
}

/**
 * Credentials for a local DynamoDB endpoint: the environment's, as Lambda provides a function's
 * (the local stack runs each bundle with its own, which the IAM guard checks), or placeholders.
 */
export function localCredentials(): { accessKeyId: string; secretAccessKey: string; sessionToken?: string } {
  return {
    accessKeyId: env.AWS_ACCESS_KEY_ID || 'local',
    secretAccessKey: env.AWS_SECRET_ACCESS_KEY || 'local',
    ...(env.AWS_SESSION_TOKEN ? { sessionToken: env.AWS_SESSION_TOKEN } : {}),
  };
}

export const DEFAULT_RETRY_BUDGET_MS = 4000;

/** The retry budget of one request in milliseconds (lib/retry.ts): RETRY_BUDGET_MS, default 4000. */
export function retryBudgetMs(): number {
  const value = Number(env.RETRY_BUDGET_MS);
  return Number.isFinite(value) && value >= 0 ? value : DEFAULT_RETRY_BUDGET_MS;
}

export const DEFAULT_REQUEST_TIMEOUT_MS = 2000;

/** How long one DynamoDB call may take: DYNAMODB_REQUEST_TIMEOUT_MS, default 2000. */
export function dynamodbRequestTimeoutMs(): number {
  return positive('DYNAMODB_REQUEST_TIMEOUT_MS', DEFAULT_REQUEST_TIMEOUT_MS);
}

/** The Lambda function's name; undefined outside Lambda (and the local stack's bundles). */
export function lambdaFunctionName(): string | undefined {
  return env.AWS_LAMBDA_FUNCTION_NAME || undefined;
}

/** A provisioned-concurrency instance starts before any request: its first request is warm. */
export function provisionedConcurrency(): boolean {
  return env.AWS_LAMBDA_INITIALIZATION_TYPE === 'provisioned-concurrency';
}

/** Sets the table and DynamoDB endpoint this process uses (the local tools and the tests). */
export function useTable(settings: { tableName?: string; endpoint?: string }): void {
  if (settings.tableName !== undefined) env.TABLE_NAME = settings.tableName;
  if (settings.endpoint !== undefined) env.DYNAMODB_ENDPOINT = settings.endpoint;
}
