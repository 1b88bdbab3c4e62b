import { randomUUID } from 'node:crypto';
import { TransactWriteCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { dynamodbRequestTimeoutMs, tableName } from '#lib/config.ts';
import { backoffWithin, currentDeadline, RetryableConflict, retryStats, withBudget, type BackoffKind } from '#lib/retry.ts';
import { db } from './client.ts';
import type { Key } from './keys.ts';
import { cancellationReasons, resendBackoff, transientKind } from './retry.ts';

type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/** One write of a transaction and what its failed condition means. */
export interface TxWrite {
  write: TransactItem;
  /**
   * The error for the client when this write's condition fails. Without it, a failed condition
   * means a concurrent change: the whole operation is retried from its reads, also when other
   * writes' conditions failed with it.
   */
  onConditionFailed?: () => Error;
}

/** Shorthands that fill in the table name. */
export const tx = {
  put(item: Record<string, unknown>, condition?: Condition): TransactItem {
    return { Put: { TableName: tableName(), Item: item, ...conditionParts(condition) } };
  },
  update(key: Key, update: Expression, condition?: Condition): TransactItem {
    return {
      Update: {
        TableName: tableName(),
        Key: key,
        UpdateExpression: update.expression,
        ...mergeParts(update, condition),
      },
    };
  },
  delete(key: Key, condition?: Condition): TransactItem {
    return { Delete: { TableName: tableName(), Key: key, ...conditionParts(condition) } };
  },
  check(key: Key, condition: Condition): TransactItem {
    return {
      ConditionCheck: {
        TableName: tableName(),
        Key: key,
        ConditionExpression: condition.expression,
        ...(condition.names ? { ExpressionAttributeNames: condition.names } : {}),
        ...(condition.values ? { ExpressionAttributeValues: condition.values } : {}),
      },
    };
  },
};

export interface Expression {
  expression: string;
  names?: Record<string, string>;
  values?: Record<string, unknown>;
}
export type Condition = Expression;

function conditionParts(condition?: Condition) {
  if (!condition) return {};
  return {
    ConditionExpression: condition.expression,
    ...(condition.names ? { ExpressionAttributeNames: condition.names } : {}),
    ...(condition.values ? { ExpressionAttributeValues: condition.values } : {}),
  };
}

function mergeParts(update: Expression, condition?: Condition) {
  const names = { ...update.names, ...condition?.names };
  const values = { ...update.values, ...condition?.values };
  return {
    ...(condition ? { ConditionExpression: condition.expression } : {}),
    ...(Object.keys(names).length ? { ExpressionAttributeNames: names } : {}),
    ...(Object.keys(values).length ? { ExpressionAttributeValues: values } : {}),
  };
}

type Outcome = { kind: 'done' } | { kind: 'resend'; backoff: BackoffKind } | { kind: 'throw'; error: unknown };

function outcomeOf(error: unknown, writes: TxWrite[]): Outcome {
  const reasons = cancellationReasons(error);
  if (!reasons) return { kind: 'throw', error };
  const failed = reasons.flatMap((reason, index) => (reason === 'ConditionalCheckFailed' ? [index] : []));
  if (failed.length > 0) {
    // A condition that means a concurrent change says the read was stale, and so may be what the
    // other failed conditions were judged on (a favorite "already there" beside a post whose count
    // the read did not include yet): that outranks them, and the retry judges again from fresh reads.
    const stale = failed.find((index) => !writes[index]?.onConditionFailed);
    if (stale !== undefined) return { kind: 'throw', error: new RetryableConflict(`condition failed on write ${stale}`) };
    return { kind: 'throw', error: writes[failed[0]!]!.onConditionFailed!() };
  }
  const backoff = resendBackoff(error);
  return backoff ? { kind: 'resend', backoff } : { kind: 'throw', error };
}

/**
 * Runs the writes as one TransactWriteItems: all happen or none. A cancelled transaction is
 * mapped by its CancellationReasons: a failed condition becomes that write's client error, or a
 * RetryableConflict (the operation starts again from its reads) when any failed write has none;
 * a conflict with another transaction or a throttled item sends the same transaction again after
 * a backoff, within the request's retry budget (then 503). Throttling, 5xx and timeouts of the call itself are retried
 * by the SDK within the same budget. Every send carries the same ClientRequestToken (DynamoDB
 * keeps it 10 minutes), so a transaction whose answer was lost is not applied twice.
 */
export async function transactWrite(writes: TxWrite[]): Promise<void> {
  // One token for every send of these writes: if an attempt whose answer was lost (a timeout, a
  // 5xx) did commit, a later send is answered from that commit instead of applying it twice.
  const token = randomUUID();
  const send = () => db().send(new TransactWriteCommand({ TransactItems: writes.map((w) => w.write), ClientRequestToken: token }));
  let lastAnswer: unknown;
  try {
    await withBudget(async () => {
      const deadline = currentDeadline();
      for (let resend = 1; ; resend++) {
        let outcome: Outcome;
        try {
          await send();
          outcome = { kind: 'done' };
        } catch (error) {
          lastAnswer = error;
          outcome = outcomeOf(error, writes);
        }
        if (outcome.kind === 'done') return;
        if (outcome.kind === 'throw') throw outcome.error;
        retryStats.transactionRetries += 1;
        await backoffWithin(deadline, outcome.backoff, resend);
      }
    });
  } catch (error) {
    if (!unsettled(lastAnswer)) throw error;
    await settle(send, writes, error);
  }
}

/** How long a transaction whose fate is unknown when the budget ran out is asked after. */
const SETTLE_MS = 2000;
const SETTLE_POLL_MS = 100;

/**
 * Whether DynamoDB may have applied (or still be applying) a send that got this answer: it is
 * still in progress, or the answer never came (a timeout, a dropped connection) or was a 5xx,
 * which for a transaction means it may or may not have succeeded. Any other answer is definite.
 */
function unsettled(answer: unknown): boolean {
  if ((answer as { name?: string } | null)?.name === 'TransactionInProgressException') return true;
  return transientKind(answer) === 'transient' && (answer as { name?: string }).name !== 'TransactionConflictException';
}

/**
 * The budget ran out on a send whose fate is unknown: that transaction may have committed, so the
 * client must not be told "busy" (it would send the write again, and a create would be stored
 * twice). Asks with the same token (answered from the commit if there was one) until DynamoDB
 * says what became of it: done (so is the request), cancelled (mapped as usual), or, still
 * unknown after the settle window, the 503 after all. The window is SETTLE_MS, or two request
 * timeouts when those are shorter, so that the request stays well within the Lambda timeout.
 */
async function settle(send: () => Promise<unknown>, writes: TxWrite[], original: unknown): Promise<void> {
  const until = Date.now() + Math.min(SETTLE_MS, 2 * dynamodbRequestTimeoutMs());
  while (Date.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, SETTLE_POLL_MS));
    try {
      await send();
      return;
    } catch (error) {
      if (unsettled(error)) continue;
      const outcome = outcomeOf(error, writes);
      // Any other answer to this token means it did not commit.
      throw outcome.kind === 'throw' ? outcome.error : original;
    }
  }
  throw original;
}
