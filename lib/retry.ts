import { AsyncLocalStorage } from 'node:async_hooks';
import { retryBudgetMs } from '#lib/config.ts';
import { ServiceUnavailable } from '#lib/errors.ts';

// Every retry in the service — a read-then-write operation that lost a race, a transaction
// cancelled by a conflict, a DynamoDB call that was throttled, failed inside DynamoDB or timed
// out, a batch with unprocessed keys — waits with full-jitter exponential backoff and stops at one
// deadline: the retry budget (RETRY_BUDGET_MS, default 8 s, and never past the function's time
// left less RESPONSE_MARGIN_MS). A request that lost a race waits its turn rather than fail: n
// writers of one item commit one after the other, so the budget is what n of them may take on a
// slow day. Nested retries share the deadline of the outermost one, so an operation that retries
// its reads and writes does not multiply the budget. When the budget is spent the client gets 503
// {"detail": ...} with Retry-After (lib/http/respond.ts). Which DynamoDB failures are retried is
// lib/db/retry.ts.

/** Time kept back from a function's timeout for answering after the last retry. */
export const RESPONSE_MARGIN_MS = 1500;

/**
 * Thrown when an optimistic write lost a race (a version check or a uniqueness claim changed
 * between read and write). The operation is safe to run again from its reads.
 */
export class RetryableConflict extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'RetryableConflict';
  }
}

/** Backoff shapes: a first delay and a cap, both in milliseconds. */
export const BACKOFF = {
  /** A conflict with a concurrent write: the other writer is usually done within milliseconds. */
  conflict: { base: 10, cap: 400 },
  /** A timeout, a 5xx from DynamoDB or a network error. */
  transient: { base: 25, cap: 1000 },
  /** Throttling: give the partition time to recover. */
  throttling: { base: 50, cap: 1000 },
} as const;
export type BackoffKind = keyof typeof BACKOFF;

/** How often each kind of retry happened in this process (for logs, metrics and test reports). */
export const retryStats = {
  /** Re-runs of read-then-write operations after a lost race. */
  conflictRetries: 0,
  /** Re-sent transactions after a TransactionConflict or a throttled item. */
  transactionRetries: 0,
  /** Retries of single DynamoDB calls by the SDK, by error name. */
  sdkRetries: {} as Record<string, number>,
  /** Rounds that re-sent unprocessed keys or items of a batch. */
  batchRetries: 0,
  /** Times a retry loop gave up because the budget was spent (each becomes a 503). */
  budgetExhausted: 0,
};

export function resetRetryStats(): void {
  retryStats.conflictRetries = 0;
  retryStats.transactionRetries = 0;
  retryStats.sdkRetries = {};
  retryStats.batchRetries = 0;
  retryStats.budgetExhausted = 0;
}

const budgets = new AsyncLocalStorage<{ deadline: number }>();

/** The deadline (epoch ms) of the enclosing budget, or of a new budget that starts now. */
export function currentDeadline(): number {
  return budgets.getStore()?.deadline ?? Date.now() + retryBudgetMs();
}

/**
 * Runs `work` under one retry budget: every retry inside it (including the SDK's) stops at the
 * same deadline, within `remainingMs` (a Lambda invocation's time left) less RESPONSE_MARGIN_MS.
 * Inside another budget it joins that one.
 */
export function withBudget<T>(work: () => Promise<T>, remainingMs?: number): Promise<T> {
  if (budgets.getStore()) return work();
  const budget = remainingMs === undefined ? retryBudgetMs() : Math.min(retryBudgetMs(), Math.max(0, remainingMs - RESPONSE_MARGIN_MS));
  return budgets.run({ deadline: Date.now() + budget }, work);
}

/** A full-jitter delay before retry number `retry` (1 = the first retry). */
export function backoffDelay(kind: BackoffKind, retry: number): number {
  const { base, cap } = BACKOFF[kind];
  return Math.random() * Math.min(cap, base * 2 ** Math.max(0, retry - 1));
}

/** Whether a retry that first waits `delay` ms still starts before `deadline`. */
export function fitsBudget(deadline: number, delay: number): boolean {
  return Date.now() + delay < deadline;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * Waits before retry number `retry`, or throws the 503 when the wait would pass `deadline`.
 */
export async function backoffWithin(deadline: number, kind: BackoffKind, retry: number): Promise<void> {
  const delay = backoffDelay(kind, retry);
  if (!fitsBudget(deadline, delay)) {
    retryStats.budgetExhausted += 1;
    throw new ServiceUnavailable();
  }
  await sleep(delay);
}

/**
 * Runs a read-then-write operation until it commits. A RetryableConflict re-runs it from its
 * reads after a backoff; when the budget is spent the client gets a 503 with Retry-After.
 */
export function withRetries<T>(operation: (attempt: number) => Promise<T>): Promise<T> {
  return withBudget(async () => {
    const deadline = currentDeadline();
    for (let attempt = 1; ; attempt++) {
      try {
        return await operation(attempt);
      } catch (error) {
        if (!(error instanceof RetryableConflict)) throw error;
        retryStats.conflictRetries += 1;
        await backoffWithin(deadline, 'conflict', attempt);
      }
    }
  });
}
