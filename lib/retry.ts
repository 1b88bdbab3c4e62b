import { ServiceUnavailable } from './errors.ts';

/**
 * Thrown when an optimistic write lost a race (a version check or a uniqueness claim changed
 * between read and write, or DynamoDB reported a transaction conflict). The operation is safe
 * to run again from its reads.
 */
export class RetryableConflict extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'RetryableConflict';
  }
}

const MAX_ATTEMPTS = 8;
const BASE_DELAY_MS = 10;
const MAX_DELAY_MS = 400;

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * Runs a read-then-write operation until it commits. Between attempts it waits with full-jitter
 * exponential backoff; when the attempts run out the client gets a 503 with Retry-After.
 */
export async function withRetries<T>(operation: (attempt: number) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await operation(attempt);
    } catch (error) {
      if (!(error instanceof RetryableConflict)) throw error;
      if (attempt >= MAX_ATTEMPTS) throw new ServiceUnavailable();
      const cap = Math.min(MAX_DELAY_MS, BASE_DELAY_MS * 2 ** attempt);
      await sleep(Math.random() * cap);
    }
  }
}
