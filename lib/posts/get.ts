import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { tableName } from '#lib/config.ts';
import { db } from '#lib/db/client.ts';
import { couldBeSlug } from '#lib/slugs/rules.ts';
import { postFromItem, postKey, type PostRecord } from './post.ts';

/** The post stored under `slug`, read strongly consistent (the admin CLI and the seed; the API reads with the token). */
export async function getPost(slug: string): Promise<PostRecord | undefined> {
  if (!couldBeSlug(slug)) return undefined;
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: postKey(slug), ConsistentRead: true }));
  return Item ? postFromItem(Item) : undefined;
}
