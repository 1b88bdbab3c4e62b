// The functions' runtime configuration: the one module of lib/ that reads the environment (the
// local tools' settings are scripts/local/settings.ts's). Settings are read on use, so tests and
// the local server can point one process at another table without reloading modules.

import { DEFAULT_SITE_NAME, isSiteName } from './site-name.ts';

export { DEFAULT_SITE_NAME, isSiteName };
const env = process.env;

/** A positive number from the environment (also the benchmark's BENCH_* settings), or the fallback. */
export function positiveSetting(name: string, fallback: number): number {
  const value = Number(env[name]);
  return Number.isFinite(value) && value > 0 ? value : fallback;
}

export function tableName(): string {
  return env.TABLE_NAME || 'community-posts';
}

/** The search index's own table (lib/search/postings.ts): SEARCH_TABLE_NAME, else the table's name and `-search`. */
export function searchTableName(): string {
  return env.SEARCH_TABLE_NAME || searchTableOf(tableName());
}

/** The search table that goes with `table` when SEARCH_TABLE_NAME does not name one (the local stack's). */
export const searchTableOf = (table: string): string => `${table}-search`;

export function tokenTtlDays(): number {
  return positiveSetting('TOKEN_TTL_DAYS', 30);
}

/** Allowed CORS origins: a comma-separated list, or `*` (the default). */
export function corsAllowedOrigins(): string[] {
  const raw = env.CORS_ALLOWED_ORIGINS?.trim();
  if (!raw) return ['*'];
  return raw
    .split(',')
    .map((o) => o.trim())
    .filter(Boolean);
}

/** The variable of the site's name (siteName()). */
export const SITE_NAME_VARIABLE = 'SITE_NAME';

/**
 * The site's name (SITE_NAME): the pages' titles, `og:site_name`, the feeds' titles. The deploy
 * settings refuse a name that is blank, longer than 60 characters or holds a control character
 * (infra/settings.ts); such a value here falls back to the default.
 */
export function siteName(): string {
  const value = env[SITE_NAME_VARIABLE] ?? '';
  return isSiteName(value) ? value : DEFAULT_SITE_NAME;
}

/**
 * The folder of the site's server renderer and page template (render.mjs, index.html): SITE_BUILD_DIR
 * when set (the local stack: web/dist-server), else undefined: the page function's own bundle.
 */
export function siteBuildDir(): string | undefined {
  return env.SITE_BUILD_DIR?.trim() || undefined;
}

/** The variable of the frontend's address (siteUrl()). */
export const SITE_URL_VARIABLE = 'SITE_URL';

/**
 * The frontend's address (SITE_URL, e.g. https://example.com): the RSS feed links each post to
 * `<SITE_URL>/posts/<slug>`; unset, to the API's own detail URL. No trailing slash.
 */
export function siteUrl(): string | undefined {
  const value = env[SITE_URL_VARIABLE]?.trim().replace(/\/+$/, '');
  return value || undefined;
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

/** The variable that closes sign-up (`closed`), as the deploy settings set it (infra/settings.ts). */
export const SIGNUP_VARIABLE = 'SIGNUP';

/** Sign-up (POST /users) is open unless SIGNUP=closed; an administrator can also close it at run time (lib/users/signup-setting.ts). */
export function signupClosedByDeployment(): boolean {
  return (env[SIGNUP_VARIABLE] ?? '').trim().toLowerCase() === 'closed';
}

/** The variables of the public-read settings (infra/settings.ts `publicReads` and `publicCacheSeconds`). */
export const PUBLIC_READS_VARIABLE = 'PUBLIC_READS';
export const PUBLIC_CACHE_SECONDS_VARIABLE = 'PUBLIC_CACHE_SECONDS';
export const DEFAULT_PUBLIC_CACHE_SECONDS = 10;

/**
 * Whether published content answers a request without an Authorization header (docs/api.md,
 * "Reading without an account"): PUBLIC_READS=true; off otherwise.
 */
export function publicReads(): boolean {
  return (env[PUBLIC_READS_VARIABLE] ?? '').trim().toLowerCase() === 'true';
}

/**
 * How long a shared cache may keep an anonymous read (its `s-maxage`): PUBLIC_CACHE_SECONDS, a
 * whole number of seconds, 0 included; default 10.
 */
export function publicCacheSeconds(): number {
  const text = (env[PUBLIC_CACHE_SECONDS_VARIABLE] ?? '').trim();
  return /^\d{1,9}$/.test(text) ? Number(text) : DEFAULT_PUBLIC_CACHE_SECONDS;
}

/**
 * The numbers of the abuse limits (docs/api.md, "Configuration that changes behaviour"): their
 * environment variables and defaults, read below and set by the deploy settings of the same names
 * (infra/settings.ts).
 */
export const LIMIT_SETTINGS = {
  loginFailuresPerPair: { variable: 'LOGIN_FAILURES_PER_PAIR', fallback: 10 },
  loginFailuresPerAddress: { variable: 'LOGIN_FAILURES_PER_ADDRESS', fallback: 100 },
  loginFailuresPerUsername: { variable: 'LOGIN_FAILURES_PER_USERNAME', fallback: 100 },
  loginFailureWindowSeconds: { variable: 'LOGIN_FAILURE_WINDOW_SECONDS', fallback: 900 },
  signupsPerAddress: { variable: 'SIGNUPS_PER_ADDRESS', fallback: 10 },
  signupWindowSeconds: { variable: 'SIGNUP_WINDOW_SECONDS', fallback: 3600 },
  commentsPerMinute: { variable: 'COMMENTS_PER_MINUTE', fallback: 10 },
  commentsPerDay: { variable: 'COMMENTS_PER_DAY', fallback: 100 },
  reportsToHide: { variable: 'REPORTS_TO_HIDE', fallback: 3 },
} as const;
export type LimitSetting = keyof typeof LIMIT_SETTINGS;

const limitSetting = (name: LimitSetting) => positiveSetting(LIMIT_SETTINGS[name].variable, LIMIT_SETTINGS[name].fallback);

/** A fixed-window limit: at most `max` events per `windowSeconds`. */
export interface RateLimitSetting {
  max: number;
  windowSeconds: number;
}

/**
 * Failed logins (docs/api.md, endpoint 1): per username and source address
 * (LOGIN_FAILURES_PER_PAIR, default 10), per address (LOGIN_FAILURES_PER_ADDRESS, 100) and per
 * username (LOGIN_FAILURES_PER_USERNAME, 100), each over LOGIN_FAILURE_WINDOW_SECONDS (900).
 */
export function loginFailureLimits(): { pair: RateLimitSetting; address: RateLimitSetting; username: RateLimitSetting } {
  const windowSeconds = limitSetting('loginFailureWindowSeconds');
  return {
    pair: { max: limitSetting('loginFailuresPerPair'), windowSeconds },
    address: { max: limitSetting('loginFailuresPerAddress'), windowSeconds },
    username: { max: limitSetting('loginFailuresPerUsername'), windowSeconds },
  };
}

/** Sign-up attempts per source address: SIGNUPS_PER_ADDRESS (default 10) per SIGNUP_WINDOW_SECONDS (3600). */
export function signupAttemptLimit(): RateLimitSetting {
  return { max: limitSetting('signupsPerAddress'), windowSeconds: limitSetting('signupWindowSeconds') };
}

/**
 * Comments a user may create (docs/api.md, Limits): COMMENTS_PER_MINUTE (default 10) per UTC
 * minute and COMMENTS_PER_DAY (100) per UTC day, fixed windows.
 */
export function commentRateLimits(): { minute: RateLimitSetting; day: RateLimitSetting } {
  return {
    minute: { max: limitSetting('commentsPerMinute'), windowSeconds: 60 },
    day: { max: limitSetting('commentsPerDay'), windowSeconds: 86_400 },
  };
}

/** Open reports from distinct users that hide a published comment (REPORTS_TO_HIDE, default 3). */
export function reportsToHide(): number {
  return limitSetting('reportsToHide');
}

export const DEFAULT_RETRY_BUDGET_MS = 8000;

/** The retry budget of one request in milliseconds (lib/retry.ts): RETRY_BUDGET_MS, default 8000 (within the function's time left). */
export function retryBudgetMs(): number {
  const value = Number(env.RETRY_BUDGET_MS);
  return Number.isFinite(value) && value >= 0 ? value : DEFAULT_RETRY_BUDGET_MS;
}

/** Postings a rebuild of the search index writes per second at most (lib/search/reindex.ts): REINDEX_WRITES_PER_SECOND, default 500. */
export function reindexWritesPerSecond(fallback: number): number {
  return positiveSetting('REINDEX_WRITES_PER_SECOND', fallback);
}

export const DEFAULT_REQUEST_TIMEOUT_MS = 2000;
/**
 * The default against an endpoint of one's own (DYNAMODB_ENDPOINT: DynamoDB Local). DynamoDB
 * answers in milliseconds, so 2 s is far past any healthy call; DynamoDB Local on two shared
 * cores runs one call at a time per table and answers a burst of 200 requests' calls seconds
 * late (docs/reliability.md, "Timeouts"). There 2 s would time out calls that are only queued,
 * and leave transactions of unknown fate the emulator commits later.
 */
export const LOCAL_REQUEST_TIMEOUT_MS = 10_000;

/** How long one DynamoDB call may take: DYNAMODB_REQUEST_TIMEOUT_MS, default 2000 (10,000 against DynamoDB Local). */
export function dynamodbRequestTimeoutMs(): number {
  return positiveSetting('DYNAMODB_REQUEST_TIMEOUT_MS', dynamodbEndpoint() ? LOCAL_REQUEST_TIMEOUT_MS : DEFAULT_REQUEST_TIMEOUT_MS);
}

/** The environment variable the stack passes the cursor secret in. */
export const CURSOR_SECRET_VARIABLE = 'CURSOR_SECRET';

/** What seals the cursors of lists locally (npm start, npm test), where no secret is configured. */
export const DEVELOPMENT_CURSOR_SECRET = 'community-posts local development cursor secret';

/**
 * The secret cursors are sealed with (lib/db/cursor.ts): CURSOR_SECRET, which the stack sets from a
 * generated Secrets Manager secret. In Lambda without it the function fails rather than seal with
 * a key anyone can read here; elsewhere it is the development secret.
 */
export function cursorSecret(): string {
  const secret = env[CURSOR_SECRET_VARIABLE];
  if (secret) {
    if (secret.length < 32) throw new Error('CURSOR_SECRET must be at least 32 characters long.');
    return secret;
  }
  if (lambdaFunctionName()) throw new Error('CURSOR_SECRET is not set.');
  return DEVELOPMENT_CURSOR_SECRET;
}

/** The Lambda function's name; undefined outside Lambda (and the local stack's bundles). */
export function lambdaFunctionName(): string | undefined {
  return env.AWS_LAMBDA_FUNCTION_NAME || undefined;
}

/** A provisioned-concurrency instance starts before any request: its first request is warm. */
export function provisionedConcurrency(): boolean {
  return env.AWS_LAMBDA_INITIALIZATION_TYPE === 'provisioned-concurrency';
}

/** The log levels of lib/log.ts (Powertools Logger's), least severe first. */
export const LOG_LEVELS = ['TRACE', 'DEBUG', 'INFO', 'WARN', 'ERROR', 'CRITICAL', 'SILENT'] as const;
export type LogLevelName = (typeof LOG_LEVELS)[number];

/** The level of the JSON log lines: LOG_LEVEL in any case (`debug`, `info`, `silent`, ...), default INFO. */
export function logLevel(): LogLevelName {
  const value = (env.LOG_LEVEL ?? '').trim().toUpperCase();
  return (LOG_LEVELS as readonly string[]).includes(value) ? (value as LogLevelName) : 'INFO';
}

/**
 * The variable that switches the Tracer on (`cdk deploy -c tracing=true` sets it to `true` on
 * every function): Powertools' own, which the Tracer reads too.
 */
export const TRACING_VARIABLE = 'POWERTOOLS_TRACE_ENABLED';

/** Whether the functions trace with AWS X-Ray (lib/tracing.ts loads the Tracer only then). */
export function tracingEnabled(): boolean {
  return env[TRACING_VARIABLE]?.trim().toLowerCase() === 'true';
}
