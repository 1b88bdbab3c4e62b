import { TransactWriteCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { RetryableConflict } from '../retry.ts';
import { db } from './client.ts';
import { tableName } from '../config.ts';
import type { Key } from './keys.ts';

type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/** One write of a transaction and what its failed condition means. */
export interface TxWrite {
  write: TransactItem;
  /**
   * The error for the client when this write's condition fails. Without it, a failed condition
   * means a concurrent change: the whole operation is retried from its reads.
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

interface CancellationReason {
  Code?: string;
}

/**
 * Runs the writes as one TransactWriteItems: all happen or none. A cancelled transaction is
 * mapped by its CancellationReasons: a failed condition becomes that write's client error (or a
 * retry), a conflict with another transaction becomes a retry.
 */
export async function transactWrite(writes: TxWrite[]): Promise<void> {
  try {
    await db().send(new TransactWriteCommand({ TransactItems: writes.map((w) => w.write) }));
  } catch (error) {
    const name = (error as { name?: string }).name;
    if (name === 'TransactionCanceledException') {
      const reasons = ((error as { CancellationReasons?: CancellationReason[] }).CancellationReasons ?? []);
      const failedIndex = reasons.findIndex((reason) => reason.Code === 'ConditionalCheckFailed');
      if (failedIndex >= 0) {
        const clientError = writes[failedIndex]?.onConditionFailed?.();
        if (clientError) throw clientError;
        throw new RetryableConflict(`condition failed on write ${failedIndex}`);
      }
      if (reasons.some((reason) => reason.Code === 'TransactionConflict')) {
        throw new RetryableConflict('transaction conflict');
      }
    }
    if (name === 'TransactionConflictException') throw new RetryableConflict('transaction conflict');
    throw error;
  }
}
