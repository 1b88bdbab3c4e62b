// Structured JSON log lines. Callers pass only what is safe to keep: never a header, a token,
// a password or a request body. Lines go to the streams directly, not through console: in Lambda
// console adds a text prefix, and CloudWatch then reads neither the JSON nor embedded metrics.

type Level = 'debug' | 'info' | 'warn' | 'error';
const ORDER: Record<Level | 'silent', number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };

function threshold(): number {
  const level = (process.env.LOG_LEVEL ?? 'info').toLowerCase() as Level | 'silent';
  return ORDER[level] ?? ORDER.info;
}

function write(level: Level, message: string, fields: Record<string, unknown>): void {
  if (ORDER[level] < threshold()) return;
  const line = JSON.stringify({ level, time: new Date().toISOString(), message, ...fields });
  (level === 'error' || level === 'warn' ? process.stderr : process.stdout).write(`${line}\n`);
}

export const log = {
  debug: (message: string, fields: Record<string, unknown> = {}) => write('debug', message, fields),
  info: (message: string, fields: Record<string, unknown> = {}) => write('info', message, fields),
  warn: (message: string, fields: Record<string, unknown> = {}) => write('warn', message, fields),
  error: (message: string, fields: Record<string, unknown> = {}) => write('error', message, fields),
};

/** Name, message and stack of an error; SDK errors add their metadata, which holds no secrets. */
export function describeError(error: unknown): Record<string, unknown> {
  if (!(error instanceof Error)) return { error: String(error) };
  return { errorName: error.name, errorMessage: error.message, stack: error.stack };
}
