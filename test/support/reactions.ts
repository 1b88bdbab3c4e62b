import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { db } from '#lib/db/client.ts';
import { keys } from '#lib/db/keys.ts';

// Reads of vote and favorite items straight from DynamoDB Local (votes.test.ts, favorites.test.ts).

export type Item = Record<string, any>;

/** The items of one partition (strongly consistent). */
export async function partition(pk: string): Promise<Item[]> {
  const items: Item[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await db().send(
      new QueryCommand({
        TableName: process.env.TABLE_NAME,
        KeyConditionExpression: 'PK = :pk',
        ExpressionAttributeValues: { ':pk': pk },
        ConsistentRead: true,
        ...(startKey ? { ExclusiveStartKey: startKey } : {}),
      }),
    );
    items.push(...((page.Items ?? []) as Item[]));
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return items;
}

/** The stable id of the post stored under `slug`. */
export async function postIdOf(slug: string): Promise<string> {
  const [text] = (await partition(keys.post(slug).PK)).filter((item) => item.SK === keys.post(slug).SK);
  if (!text) throw new Error(`no post ${slug}`);
  return String(text.id);
}

/** Waits up to `ms` for `check` to hold (the stream consumer's work). */
export async function eventually(check: () => Promise<boolean>, ms = 15_000): Promise<void> {
  const start = Date.now();
  while (!(await check())) {
    if (Date.now() - start > ms) throw new Error(`still not so after ${ms} ms`);
    await new Promise((done) => setTimeout(done, 100));
  }
}
