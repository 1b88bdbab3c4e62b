import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { tableName } from '#lib/config.ts';
import { db } from './client.ts';
import type { Key } from './keys.ts';
import { TTL_ATTRIBUTE } from './table.ts';

/** What `incrementCounter` adds one to: an attribute, and optionally when the item may expire (epoch seconds). */
export interface CounterUpdate {
  attribute: string;
  expiresAt?: number;
}

/** The update expression that adds one to a counter (and sets its TTL): alone or inside a transaction. */
export function counterIncrement({ attribute, expiresAt }: CounterUpdate) {
  return {
    expression: expiresAt === undefined ? 'ADD #count :one' : 'ADD #count :one SET #expires = :expires',
    names: { '#count': attribute, ...(expiresAt === undefined ? {} : { '#expires': TTL_ATTRIBUTE }) },
    values: { ':one': 1, ...(expiresAt === undefined ? {} : { ':expires': expiresAt }) },
  };
}

/**
 * Adds one to a counter item (created at 1 when absent) and returns the new count. DynamoDB's ADD
 * is atomic: concurrent callers each get a different number, which is what a ticket needs.
 */
export async function incrementCounter(key: Key, counter: CounterUpdate): Promise<number> {
  const update = counterIncrement(counter);
  const { Attributes } = await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: key,
      UpdateExpression: update.expression,
      ExpressionAttributeNames: update.names,
      ExpressionAttributeValues: update.values,
      ReturnValues: 'UPDATED_NEW',
    }),
  );
  return Number(Attributes?.[counter.attribute] ?? 0);
}
