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
