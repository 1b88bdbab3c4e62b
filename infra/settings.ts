import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Node } from 'constructs';
import { DEFAULT_SITE_NAME, isSiteName, type LimitSetting } from '#lib/config.ts';
import { DEFAULT_LIMITS, type LimitsSettings } from './limits.ts';
import { DEFAULT_PUBLIC_READS, type PublicReadSettings } from './public-reads.ts';
import { stackRouteKeys } from './route-keys.ts';
import { DEFAULT_STREAM_CONSUMER, type StreamConsumerSettings } from './streams.ts';

// Deploy-time settings, read from CDK context: cdk.json holds the defaults, and
// `npx cdk deploy -c name=value` overrides one. Values given with -c arrive as strings.

/** The throttle of one route: steady requests per second, and the burst accepted above it. */
export interface RouteThrottle {
  rateLimit: number;
  burstLimit: number;
}

export interface DeploySettings extends LimitsSettings, PublicReadSettings, StreamConsumerSettings {
  /** Name of the CloudFormation stack. */
  stackName: string;
  /** Origins allowed by CORS; `['*']` allows any. */
  allowedOrigins: string[];
  /**
   * Steady-state requests per second of EACH route of the $default stage (its default route
   * settings), unless `routeThrottling` gives the route its own. Not a limit across routes.
   */
  throttlingRateLimit: number;
  /** Burst of requests each route accepts above its rate (same routes as throttlingRateLimit). */
  throttlingBurstLimit: number;
  /** Throttles of single routes, by route key as API Gateway writes it ('POST /api/v1/login'). */
  routeThrottling: Readonly<Record<string, RouteThrottle>>;
  /**
   * If set, the most the rate limits of all routes may add up to (HTTP APIs have no limit across
   * routes): settings whose sum is larger are refused, so the synth stops. Unset: no check.
   */
  throttlingOverallRateLimit: number | undefined;
  /** Memory of each function in MB (CPU grows with it; bcrypt at login is the heaviest work). */
  memorySize: number;
  /** How long the function logs and the API access logs are kept. */
  logRetentionDays: RetentionDays;
  /**
   * AWS X-Ray tracing of every function (active tracing, the X-Ray permissions, and the
   * Powertools Tracer switched on in the code). Off by default: the Tracer costs cold-start time.
   */
  tracing: boolean;
  /**
   * The frontend's address (https://example.com): the RSS feed links posts to `<siteUrl>/posts/<slug>`
   * (the functions' SITE_URL). Unset: `https://<first of domainNames>`, else the distribution's address (siteAddressOf()).
   */
  siteUrl: string | undefined;
  /**
   * The site's name (the page function's and the API functions' SITE_NAME): the pages' titles,
   * `og:site_name`, the RSS feeds' titles. 1 to 60 characters, no control character.
   */
  siteName: string;
  /**
   * The distribution's own domain names (context `domainName`: one name, or a comma-separated list),
   * lower case; the first is the site's canonical address. Empty: the distribution's `*.cloudfront.net` name only.
   */
  domainNames: string[];
  /** The ACM certificate of domainNames (in us-east-1, where CloudFront takes certificates from). */
  certificateArn: string | undefined;
  /** A Route 53 hosted zone holding domainNames: the stack writes their A and AAAA alias records to the distribution. */
  hostedZoneId: string | undefined;
  /**
   * Where the alarms are mailed: an email subscription of the alarm topic (infra/monitoring.ts),
   * which the address must confirm. Unset: the topic exists without a subscription.
   */
  alarmEmail: string | undefined;
  /** The API's 5xx responses, in percent of its requests over 5 minutes, that count toward its alarm. */
  errorRateAlarmPercent: number;
  /** The p99 latency in ms (over 5 minutes, 15 minutes in a row) that raises a route's latency alarm. */
  latencyP99AlarmMs: number;
  /**
   * API Gateway's detailed metrics (per route), with a p99 latency alarm per route; off: one
   * p99 latency alarm for the whole API. Detailed metrics are billed as custom metrics.
   */
  routeMetrics: boolean;
  /** A function's errors (crashes, timeouts) in 5 minutes that raise its alarm. */
  functionErrorsAlarmCount: number;
  /** Throttled requests of the table and its indexes (reads or writes) in 5 minutes that raise an alarm. */
  tableThrottlesAlarmCount: number;
  /** How far behind the stream consumer may fall, in seconds (the stream's iterator age, its maximum in a minute), before its alarm. */
  streamIteratorAgeAlarmSeconds: number;
  /** The minutes in a row the iterator age must stay that high to raise the alarm. */
  streamIteratorAgeAlarmMinutes: number;
}

/** Context keys, as written in cdk.json and given with `-c`. */
export const CONTEXT_KEYS = {
  stackName: 'stackName',
  allowedOrigins: 'allowedOrigins',
  throttlingRateLimit: 'throttlingRateLimit',
  throttlingBurstLimit: 'throttlingBurstLimit',
  routeThrottling: 'routeThrottling',
  throttlingOverallRateLimit: 'throttlingOverallRateLimit',
  memorySize: 'memorySize',
  logRetentionDays: 'logRetentionDays',
  tracing: 'tracing',
  siteUrl: 'siteUrl',
  siteName: 'siteName',
  domainNames: 'domainName',
  certificateArn: 'certificateArn',
  hostedZoneId: 'hostedZoneId',
  alarmEmail: 'alarmEmail',
  errorRateAlarmPercent: 'errorRateAlarmPercent',
  latencyP99AlarmMs: 'latencyP99AlarmMs',
  routeMetrics: 'routeMetrics',
  functionErrorsAlarmCount: 'functionErrorsAlarmCount',
  tableThrottlesAlarmCount: 'tableThrottlesAlarmCount',
  streamIteratorAgeAlarmSeconds: 'streamIteratorAgeAlarmSeconds',
  streamIteratorAgeAlarmMinutes: 'streamIteratorAgeAlarmMinutes',
  streamTimeoutSeconds: 'streamTimeoutSeconds',
  streamMemorySize: 'streamMemorySize',
  streamBatchSize: 'streamBatchSize',
  streamParallelizationFactor: 'streamParallelizationFactor',
  streamRetryAttempts: 'streamRetryAttempts',
  streamBisectBatchOnError: 'streamBisectBatchOnError',
  streamMaxRecordAgeSeconds: 'streamMaxRecordAgeSeconds',
  streamBatchingWindowSeconds: 'streamBatchingWindowSeconds',
  signup: 'signup',
  loginFailuresPerPair: 'loginFailuresPerPair',
  loginFailuresPerAddress: 'loginFailuresPerAddress',
  loginFailuresPerUsername: 'loginFailuresPerUsername',
  loginFailureWindowSeconds: 'loginFailureWindowSeconds',
  signupsPerAddress: 'signupsPerAddress',
  signupWindowSeconds: 'signupWindowSeconds',
  commentsPerMinute: 'commentsPerMinute',
  commentsPerDay: 'commentsPerDay',
  reportsToHide: 'reportsToHide',
  publicReads: 'publicReads',
  publicCacheSeconds: 'publicCacheSeconds',
} as const satisfies Record<keyof DeploySettings, string>;

/** Used for any key the context does not set (cdk.json sets the same values). */
export const DEFAULT_SETTINGS: DeploySettings = {
  stackName: 'CommunityPosts',
  allowedOrigins: ['*'],
  throttlingRateLimit: 50,
  throttlingBurstLimit: 100,
  // Login runs a bcrypt check per request and is the flow to guess passwords with.
  routeThrottling: { 'POST /api/v1/login': { rateLimit: 10, burstLimit: 20 } },
  throttlingOverallRateLimit: undefined,
  memorySize: 512,
  logRetentionDays: RetentionDays.ONE_MONTH,
  tracing: false,
  siteUrl: undefined,
  siteName: DEFAULT_SITE_NAME,
  domainNames: [],
  certificateArn: undefined,
  hostedZoneId: undefined,
  alarmEmail: undefined,
  errorRateAlarmPercent: 5,
  latencyP99AlarmMs: 2000,
  routeMetrics: true,
  functionErrorsAlarmCount: 1,
  tableThrottlesAlarmCount: 10,
  // The search finds a post within about 10 s of its write (docs/streams.md, "The iterator age alarm").
  streamIteratorAgeAlarmSeconds: 30,
  streamIteratorAgeAlarmMinutes: 3,
  ...DEFAULT_STREAM_CONSUMER,
  ...DEFAULT_LIMITS,
  ...DEFAULT_PUBLIC_READS,
};

export class SettingsError extends Error {
  override name = 'SettingsError';
}

const RETENTION_VALUES = new Set<number>(Object.values(RetentionDays).filter((value): value is number => typeof value === 'number'));

function text(key: string, value: unknown): string {
  if (typeof value !== 'string' || value.trim() === '') throw new SettingsError(`Context "${key}" must be a non-empty string.`);
  return value.trim();
}

function origins(key: string, value: unknown): string[] {
  const list = Array.isArray(value) ? value.map(String) : typeof value === 'string' ? value.split(',') : null;
  const cleaned = list?.map((origin) => origin.trim()).filter(Boolean);
  if (!cleaned || cleaned.length === 0) {
    throw new SettingsError(`Context "${key}" must be "*" or a comma-separated list of origins.`);
  }
  for (const origin of cleaned) {
    if (origin !== '*' && !/^https?:\/\/[^/\s]+$/.test(origin)) {
      throw new SettingsError(`Context "${key}": "${origin}" is not an origin like https://example.com (no path, no trailing slash).`);
    }
  }
  return cleaned.includes('*') ? ['*'] : cleaned;
}

function integer(key: string, value: unknown, min: number, max: number): number {
  const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  if (typeof number !== 'number' || !Number.isInteger(number) || number < min || number > max) {
    throw new SettingsError(`Context "${key}" must be a whole number from ${min} to ${max}, not ${JSON.stringify(value)}.`);
  }
  return number;
}

/** `null`, `""` and `"none"` (in any case): an optional setting left unset. */
const isUnset = (value: unknown) => value === null || (typeof value === 'string' && ['', 'none'].includes(value.trim().toLowerCase()));

/** Like integer(), but `null`, `""` and `"none"` leave the setting unset. */
function optionalInteger(key: string, value: unknown, min: number, max: number): number | undefined {
  if (isUnset(value)) return undefined;
  return integer(key, value, min, max);
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

const ROUTE_THROTTLING_EXAMPLE = '{"POST /api/v1/login": {"rateLimit": 10, "burstLimit": 20}}';

/** A JSON object (a string of JSON when given with -c) of route key → { rateLimit, burstLimit }. */
function routeThrottles(key: string, value: unknown): Record<string, RouteThrottle> {
  let parsed = value;
  if (typeof value === 'string') {
    try {
      parsed = JSON.parse(value);
    } catch {
      throw new SettingsError(`Context "${key}" must be a JSON object such as ${ROUTE_THROTTLING_EXAMPLE}, not ${JSON.stringify(value)}.`);
    }
  }
  if (!isObject(parsed)) throw new SettingsError(`Context "${key}" must be a JSON object such as ${ROUTE_THROTTLING_EXAMPLE}.`);
  const known = stackRouteKeys();
  const throttles: Record<string, RouteThrottle> = {};
  for (const [routeKey, limits] of Object.entries(parsed)) {
    if (!known.includes(routeKey)) {
      throw new SettingsError(`Context "${key}": "${routeKey}" is not a route of the API. Route keys: ${known.map((k) => JSON.stringify(k)).join(', ')}.`);
    }
    const unknown = isObject(limits) ? Object.keys(limits).filter((name) => name !== 'rateLimit' && name !== 'burstLimit') : [];
    if (!isObject(limits) || unknown.length > 0) {
      throw new SettingsError(`Context "${key}": the value of "${routeKey}" must be {"rateLimit": n, "burstLimit": n}, not ${JSON.stringify(limits)}.`);
    }
    throttles[routeKey] = {
      rateLimit: integer(`${key}: ${routeKey} rateLimit`, limits.rateLimit, 1, 10_000),
      burstLimit: integer(`${key}: ${routeKey} burstLimit`, limits.burstLimit, 1, 5_000),
    };
  }
  return throttles;
}

/** What the throttles of all routes add up to: the most the API accepts (it has no limit across routes). */
export interface ThrottleTotals {
  /** Number of routes. */
  routes: number;
  /** Routes with their own throttle (`routeThrottling`); the others take the per-route default. */
  overridden: number;
  /** Sum of the rate limits, requests per second. */
  rateLimit: number;
  /** Sum of the burst limits. */
  burstLimit: number;
}

/**
 * Adds up the throttles of the given routes (by default those the stack creates), and refuses
 * settings whose rate limits add up to more than `throttlingOverallRateLimit`.
 */
export function throttleTotals(settings: DeploySettings, routeKeys: readonly string[] = stackRouteKeys()): ThrottleTotals {
  const totals: ThrottleTotals = { routes: routeKeys.length, overridden: 0, rateLimit: 0, burstLimit: 0 };
  let overriddenRate = 0;
  for (const routeKey of routeKeys) {
    const own = settings.routeThrottling[routeKey];
    if (own) {
      totals.overridden += 1;
      overriddenRate += own.rateLimit;
    }
    totals.rateLimit += own?.rateLimit ?? settings.throttlingRateLimit;
    totals.burstLimit += own?.burstLimit ?? settings.throttlingBurstLimit;
  }
  const overall = settings.throttlingOverallRateLimit;
  if (overall !== undefined && totals.rateLimit > overall) {
    const others = totals.routes - totals.overridden;
    const fits = others > 0 ? Math.floor((overall - overriddenRate) / others) : 0;
    const fix =
      fits >= 1
        ? `lower "${CONTEXT_KEYS.throttlingRateLimit}" to ${fits} or less, lower routes in "${CONTEXT_KEYS.routeThrottling}"`
        : `lower the routes in "${CONTEXT_KEYS.routeThrottling}" (they alone take ${overriddenRate})`;
    throw new SettingsError(
      `Context "${CONTEXT_KEYS.throttlingOverallRateLimit}" is ${overall} requests/s, but the rate limits of the ${totals.routes} routes add up to ${totals.rateLimit} ` +
        `(${others} at "${CONTEXT_KEYS.throttlingRateLimit}" ${settings.throttlingRateLimit}, ${totals.overridden} from "${CONTEXT_KEYS.routeThrottling}" with ${overriddenRate}): ` +
        `${fix}, or raise "${CONTEXT_KEYS.throttlingOverallRateLimit}".`,
    );
  }
  return totals;
}

/** true or false: a JSON boolean (cdk.json), or the string `true` or `false` (-c), in any case. */
function flag(key: string, value: unknown): boolean {
  if (typeof value === 'boolean') return value;
  const word = typeof value === 'string' ? value.trim().toLowerCase() : '';
  if (word === 'true' || word === 'false') return word === 'true';
  throw new SettingsError(`Context "${key}" must be true or false, not ${JSON.stringify(value)}.`);
}

/** An http(s) address with no query or fragment, its trailing slashes dropped; `null`, `""` or `"none"`: unset. */
function siteAddress(key: string, value: unknown): string | undefined {
  if (isUnset(value)) return undefined;
  const address = typeof value === 'string' ? value.trim().replace(/\/+$/, '') : '';
  if (!/^https?:\/\/[^/\s?#]+(\/[^\s?#]*)?$/.test(address)) {
    throw new SettingsError(`Context "${key}" must be an address like https://example.com, not ${JSON.stringify(value)}.`);
  }
  return address;
}

/** The site's name, trimmed: what isSiteName() accepts (lib/config.ts, which falls back to the default on anything else). */
function siteNameSetting(key: string, value: unknown): string {
  const name = typeof value === 'string' ? value.trim() : '';
  if (!isSiteName(name)) {
    throw new SettingsError(`Context "${key}" must be 1 to 60 characters with no control character, not ${JSON.stringify(value)}.`);
  }
  return name;
}

/** A number, whole or not (a string of one with -c), from min to max. */
function decimal(key: string, value: unknown, min: number, max: number): number {
  const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  if (typeof number !== 'number' || !Number.isFinite(number) || number < min || number > max) {
    throw new SettingsError(`Context "${key}" must be a number from ${min} to ${max}, not ${JSON.stringify(value)}.`);
  }
  return number;
}

/** One email address, trimmed; `null`, `""` or `"none"`: unset. */
function emailAddress(key: string, value: unknown): string | undefined {
  if (isUnset(value)) return undefined;
  const address = typeof value === 'string' ? value.trim() : '';
  if (!/^[^\s@,;<>"]+@[^\s@,;<>"]+\.[^\s@,;<>".]+$/.test(address)) {
    throw new SettingsError(`Context "${key}" must be one email address like ops@example.com, not ${JSON.stringify(value)}.`);
  }
  return address;
}

/** A DNS label: letters, digits and inner hyphens, 63 characters at most. */
const DNS_LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/**
 * Host names (a JSON list, or a comma-separated string), lower case, a trailing dot dropped: each
 * at least two labels, no wildcard (the first is the site's address) and not CloudFront's own
 * domain; `null`, `""` or `"none"`: none.
 */
function domainNames(key: string, value: unknown): string[] {
  if (isUnset(value)) return [];
  const list = Array.isArray(value) ? value : typeof value === 'string' ? value.split(',') : null;
  if (!list) throw new SettingsError(`Context "${key}" must be a domain name like community.example.com, or a comma-separated list of them.`);
  const names = list.map((name) => String(name).trim().toLowerCase().replace(/\.$/, '')).filter(Boolean);
  for (const name of names) {
    const labels = name.split('.');
    if (name.length > 253 || labels.length < 2 || !labels.every((label) => DNS_LABEL.test(label)) || /^[0-9]+$/.test(labels.at(-1)!)) {
      throw new SettingsError(`Context "${key}": "${name}" is not a domain name like community.example.com (no wildcard, no scheme, no path).`);
    }
    if (name.endsWith('.cloudfront.net')) {
      throw new SettingsError(`Context "${key}": "${name}" is CloudFront's own domain, which the distribution has already; name a domain of your own.`);
    }
  }
  if (new Set(names).size !== names.length) throw new SettingsError(`Context "${key}" names a domain twice: ${JSON.stringify(names.join(','))}.`);
  // CloudFront's quota of alternate domain names per distribution.
  if (names.length > 100) throw new SettingsError(`Context "${key}" has ${names.length} names; a distribution takes 100 at most.`);
  return names;
}

/** The region CloudFront takes its viewer certificates from. */
export const CERTIFICATE_REGION = 'us-east-1';

/** An ACM certificate's ARN, in us-east-1; `null`, `""` or `"none"`: unset. */
function certificateArn(key: string, value: unknown): string | undefined {
  if (isUnset(value)) return undefined;
  const arn = typeof value === 'string' ? value.trim() : '';
  const match = /^arn:aws[a-z-]*:acm:([a-z0-9-]+):[0-9]{12}:certificate\/[A-Za-z0-9-]+$/.exec(arn);
  if (!match) {
    throw new SettingsError(
      `Context "${key}" must be the ARN of an ACM certificate, like arn:aws:acm:${CERTIFICATE_REGION}:123456789012:certificate/<id>, not ${JSON.stringify(value)}.`,
    );
  }
  if (match[1] !== CERTIFICATE_REGION) {
    throw new SettingsError(
      `Context "${key}": the certificate is in ${match[1]}, but CloudFront only takes certificates from ${CERTIFICATE_REGION} (US East, N. Virginia), ` +
        `whatever the stack's region: request or import it there (docs/deploy.md, "Custom domain").`,
    );
  }
  return arn;
}

/** A Route 53 hosted zone id (Z...), with or without its `/hostedzone/` prefix; `null`, `""` or `"none"`: unset. */
function hostedZoneId(key: string, value: unknown): string | undefined {
  if (isUnset(value)) return undefined;
  const id = typeof value === 'string' ? value.trim().replace(/^\/?hostedzone\//, '') : '';
  if (!/^Z[A-Z0-9]{1,31}$/.test(id))
    throw new SettingsError(`Context "${key}" must be a Route 53 hosted zone id like Z0123456789ABCDEFGHIJ, not ${JSON.stringify(value)}.`);
  return id;
}

/** `open` or `closed`, in any case. */
function signupState(key: string, value: unknown): 'open' | 'closed' {
  const word = typeof value === 'string' ? value.trim().toLowerCase() : '';
  if (word === 'open' || word === 'closed') return word;
  throw new SettingsError(`Context "${key}" must be open or closed, not ${JSON.stringify(value)}.`);
}

/** The most a limit's count or window may be: a day in seconds, or a million events. */
const LIMIT_BOUNDS: Record<LimitSetting, number> = {
  loginFailuresPerPair: 1_000_000,
  loginFailuresPerAddress: 1_000_000,
  loginFailuresPerUsername: 1_000_000,
  loginFailureWindowSeconds: 86_400,
  signupsPerAddress: 1_000_000,
  signupWindowSeconds: 86_400,
  commentsPerMinute: 1_000_000,
  commentsPerDay: 1_000_000,
  reportsToHide: 1_000,
};

function retention(key: string, value: unknown): RetentionDays {
  const days = integer(key, value, 1, 3653);
  if (!RETENTION_VALUES.has(days)) {
    throw new SettingsError(
      `Context "${key}" must be one of the CloudWatch Logs retention periods: ${[...RETENTION_VALUES].sort((a, b) => a - b).join(', ')}.`,
    );
  }
  return days as RetentionDays;
}

/** The settings from a construct's context, each missing key taking its default. */
export function readSettings(node: Pick<Node, 'tryGetContext'>): DeploySettings {
  const get = (key: string) => {
    const value: unknown = node.tryGetContext(key);
    return value === undefined || value === null ? undefined : value;
  };
  const read = <K extends keyof DeploySettings>(name: K, parse: (key: string, value: unknown) => DeploySettings[K]) => {
    const key = CONTEXT_KEYS[name];
    const value = get(key);
    return value === undefined ? DEFAULT_SETTINGS[name] : parse(key, value);
  };
  const settings: DeploySettings = {
    stackName: read('stackName', text),
    allowedOrigins: read('allowedOrigins', origins),
    throttlingRateLimit: read('throttlingRateLimit', (key, value) => integer(key, value, 1, 10_000)),
    throttlingBurstLimit: read('throttlingBurstLimit', (key, value) => integer(key, value, 1, 5_000)),
    routeThrottling: read('routeThrottling', routeThrottles),
    throttlingOverallRateLimit: read('throttlingOverallRateLimit', (key, value) => optionalInteger(key, value, 1, 10_000)),
    memorySize: read('memorySize', (key, value) => integer(key, value, 128, 10_240)),
    logRetentionDays: read('logRetentionDays', retention),
    tracing: read('tracing', flag),
    siteUrl: read('siteUrl', siteAddress),
    siteName: read('siteName', siteNameSetting),
    domainNames: read('domainNames', domainNames),
    certificateArn: read('certificateArn', certificateArn),
    hostedZoneId: read('hostedZoneId', hostedZoneId),
    alarmEmail: read('alarmEmail', emailAddress),
    errorRateAlarmPercent: read('errorRateAlarmPercent', (key, value) => decimal(key, value, 0.1, 100)),
    latencyP99AlarmMs: read('latencyP99AlarmMs', (key, value) => integer(key, value, 50, 30_000)),
    routeMetrics: read('routeMetrics', flag),
    functionErrorsAlarmCount: read('functionErrorsAlarmCount', (key, value) => integer(key, value, 1, 10_000)),
    tableThrottlesAlarmCount: read('tableThrottlesAlarmCount', (key, value) => integer(key, value, 1, 1_000_000)),
    streamIteratorAgeAlarmSeconds: read('streamIteratorAgeAlarmSeconds', (key, value) => integer(key, value, 5, 86_400)),
    // An alarm looks at a day at most.
    streamIteratorAgeAlarmMinutes: read('streamIteratorAgeAlarmMinutes', (key, value) => integer(key, value, 1, 1_440)),
    // Lambda's bounds (a stream's records live 24 hours, so an older age would never be reached).
    streamTimeoutSeconds: read('streamTimeoutSeconds', (key, value) => integer(key, value, 1, 900)),
    streamMemorySize: read('streamMemorySize', (key, value) => integer(key, value, 128, 10_240)),
    streamBatchSize: read('streamBatchSize', (key, value) => integer(key, value, 1, 10_000)),
    streamParallelizationFactor: read('streamParallelizationFactor', (key, value) => integer(key, value, 1, 10)),
    streamRetryAttempts: read('streamRetryAttempts', (key, value) => integer(key, value, 0, 10_000)),
    streamBisectBatchOnError: read('streamBisectBatchOnError', flag),
    streamMaxRecordAgeSeconds: read('streamMaxRecordAgeSeconds', (key, value) => optionalInteger(key, value, 60, 86_400)),
    streamBatchingWindowSeconds: read('streamBatchingWindowSeconds', (key, value) => integer(key, value, 0, 300)),
    signup: read('signup', signupState),
    ...(Object.fromEntries(
      (Object.keys(LIMIT_BOUNDS) as LimitSetting[]).map((name) => [name, read(name, (key, value) => integer(key, value, 1, LIMIT_BOUNDS[name]))]),
    ) as Record<LimitSetting, number>),
    publicReads: read('publicReads', flag),
    // A year at most: the longest a shared cache is usefully told to keep anything.
    publicCacheSeconds: read('publicCacheSeconds', (key, value) => integer(key, value, 0, 31_536_000)),
  };
  throttleTotals(settings);
  checkDomain(settings);
  return settings;
}

/** Refuses a domain, certificate, hosted zone and siteUrl that do not go together. */
function checkDomain(settings: DeploySettings): void {
  const [canonical] = settings.domainNames;
  const { domainNames: domain, certificateArn: certificate, hostedZoneId: zone, siteUrl } = CONTEXT_KEYS;
  if (!canonical) {
    for (const [key, value] of [
      [certificate, settings.certificateArn],
      [zone, settings.hostedZoneId],
    ] as const) {
      if (value)
        throw new SettingsError(
          `Context "${key}" is set but "${domain}" is not: name the domain it is for (docs/deploy.md, "Custom domain"), or unset "${key}".`,
        );
    }
    return;
  }
  if (!settings.certificateArn) {
    throw new SettingsError(
      `Context "${domain}" needs "${certificate}": the ARN of an ACM certificate in ${CERTIFICATE_REGION} that covers ${settings.domainNames.join(', ')} (docs/deploy.md, "Custom domain").`,
    );
  }
  const address = `https://${canonical}`;
  if (settings.siteUrl !== undefined && settings.siteUrl !== address) {
    throw new SettingsError(
      `Context "${siteUrl}" is ${settings.siteUrl}, but "${domain}" makes the site ${address}: leave "${siteUrl}" unset (it follows "${domain}") or set it to ${address}.`,
    );
  }
}

/** The site's address that the feed links to, when the settings name one: siteUrl, else the first domain name; undefined: the distribution's. */
export function siteAddressOf(settings: Pick<DeploySettings, 'siteUrl' | 'domainNames'>): string | undefined {
  return settings.siteUrl ?? (settings.domainNames[0] ? `https://${settings.domainNames[0]}` : undefined);
}

/** The account and region the CDK CLI took from the credentials in use (both, or neither): the CLI's environment, not context. */
export function cdkEnvironment(): { account: string; region: string } | undefined {
  const account = process.env.CDK_DEFAULT_ACCOUNT;
  const region = process.env.CDK_DEFAULT_REGION;
  return account && region ? { account, region } : undefined;
}
