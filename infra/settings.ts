import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Node } from 'constructs';

// Deploy-time settings, read from CDK context: cdk.json holds the defaults, and
// `npx cdk deploy -c name=value` overrides one. Values given with -c arrive as strings.

export interface DeploySettings {
  /** Name of the CloudFormation stack. */
  stackName: string;
  /** Origins allowed by CORS; `['*']` allows any. */
  allowedOrigins: string[];
  /** Steady-state requests per second of the $default stage. */
  throttlingRateLimit: number;
  /** Burst of requests the $default stage accepts above the rate. */
  throttlingBurstLimit: number;
  /** Memory of each function in MB (CPU grows with it; bcrypt at login is the heaviest work). */
  memorySize: number;
  /** How long the function logs and the API access logs are kept. */
  logRetentionDays: RetentionDays;
}

/** Context keys, as written in cdk.json and given with `-c`. */
export const CONTEXT_KEYS = {
  stackName: 'stackName',
  allowedOrigins: 'allowedOrigins',
  throttlingRateLimit: 'throttlingRateLimit',
  throttlingBurstLimit: 'throttlingBurstLimit',
  memorySize: 'memorySize',
  logRetentionDays: 'logRetentionDays',
} as const satisfies Record<keyof DeploySettings, string>;

/** Used for any key the context does not set (cdk.json sets the same values). */
export const DEFAULT_SETTINGS: DeploySettings = {
  stackName: 'CommunityPosts',
  allowedOrigins: ['*'],
  throttlingRateLimit: 50,
  throttlingBurstLimit: 100,
  memorySize: 512,
  logRetentionDays: RetentionDays.ONE_MONTH,
};

export class SettingsError extends Error {
  override name = 'SettingsError';
}

const RETENTION_VALUES = new Set<number>(
  Object.values(RetentionDays).filter((value): value is number => typeof value === 'number'),
);

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

function retention(key: string, value: unknown): RetentionDays {
  const days = integer(key, value, 1, 3653);
  if (!RETENTION_VALUES.has(days)) {
    throw new SettingsError(`Context "${key}" must be one of the CloudWatch Logs retention periods: ${[...RETENTION_VALUES].sort((a, b) => a - b).join(', ')}.`);
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
    memorySize: read('memorySize', (key, value) => integer(key, value, 128, 10_240)),
    logRetentionDays: read('logRetentionDays', retention),
  };
  return settings;
}
