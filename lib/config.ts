// Settings come from the environment and are read on use, so tests and the local server
// can point one process at another table without reloading modules.

export function tableName(): string {
  return process.env.TABLE_NAME || 'community-posts';
}

export function tokenTtlDays(): number {
  const days = Number(process.env.TOKEN_TTL_DAYS);
  return Number.isFinite(days) && days > 0 ? days : 30;
}

/** Allowed CORS origins: a comma-separated list, or `*` (the default). */
export function corsAllowedOrigins(): string[] {
  const raw = process.env.CORS_ALLOWED_ORIGINS?.trim();
  if (!raw) return ['*'];
  return raw.split(',').map((o) => o.trim()).filter(Boolean);
}

export function awsRegion(): string {
  return process.env.AWS_REGION || 'us-east-1';
}

export function dynamodbEndpoint(): string | undefined {
  return process.env.DYNAMODB_ENDPOINT || undefined;
}

/**
 * Credentials for a local DynamoDB endpoint: the environment's, as Lambda provides a function's
 * (the local stack runs each bundle with its own, which the IAM guard checks), or placeholders.
 */
export function localCredentials(): { accessKeyId: string; secretAccessKey: string; sessionToken?: string } {
  return {
    accessKeyId: process.env.AWS_ACCESS_KEY_ID || 'local',
    secretAccessKey: process.env.AWS_SECRET_ACCESS_KEY || 'local',
    ...(process.env.AWS_SESSION_TOKEN ? { sessionToken: process.env.AWS_SESSION_TOKEN } : {}),
  };
}
