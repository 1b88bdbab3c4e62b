import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db } from './db/client.ts';
import { keys, listPartitions, type Key } from './db/keys.ts';
import { queryPage, type Page } from './db/query.ts';
import type { Item } from './db/batch.ts';
import { tableName } from './config.ts';
import { NotFound } from './errors.ts';
import type { PageRequest } from './pagination.ts';
import { profileTimestamp } from './time.ts';
import { validate, type Input, type Specs } from './validation.ts';

export const USERNAME_MAX_LENGTH = 150;

/** Editable profile fields with their rules. */
export const PROFILE_SPECS = {
  display_name: { type: 'string', nullable: true, allowBlank: true, maxLength: 150 },
  location: { type: 'string', nullable: true, allowBlank: true, maxLength: 150 },
  about_me: { type: 'string', nullable: true, allowBlank: true, maxLength: 5000 },
  website: { type: 'url', nullable: true, allowBlank: true, maxLength: 200 },
  twitter: { type: 'string', nullable: true, allowBlank: true, maxLength: 200 },
  linkedin: { type: 'string', nullable: true, allowBlank: true, maxLength: 200 },
  github: { type: 'url', nullable: true, allowBlank: true, maxLength: 200 },
  birth_date: { type: 'date', nullable: true },
} as const satisfies Specs;

export const PROFILE_FIELDS = Object.keys(PROFILE_SPECS) as (keyof typeof PROFILE_SPECS)[];

const nullable = (value: unknown) => (value === undefined || value === null ? null : String(value));

/** The API shape of a profile, fields in the contract's order. */
export function toProfile(item: Item) {
  return {
    user: String(item.username),
    last_login: item.last_login ? profileTimestamp(String(item.last_login)) : null,
    date_joined: profileTimestamp(String(item.date_joined)),
    total_posts: Number(item.total_posts ?? 0),
    total_favorites: Number(item.total_favorites ?? 0),
    total_featured_posts: Number(item.total_featured_posts ?? 0),
    ...Object.fromEntries(PROFILE_FIELDS.map((field) => [field, nullable(item[field])])),
  };
}

/** The key of a user's profile; null for a username that cannot exist (answered without a read). */
export function profileKey(username: string): Key | null {
  return username.length > 0 && username.length <= USERNAME_MAX_LENGTH ? keys.userProfile(username) : null;
}

/** The profile item if it belongs to an active user. */
export function activeProfile(item: Item | undefined): Item | undefined {
  return item && item.is_active === true ? item : undefined;
}

export function listUsers(request: PageRequest): Promise<Page> {
  return queryPage({ index: 'lists', partition: listPartitions.users }, request);
}

export function parseProfileInput(input: Input) {
  return validate(input, PROFILE_SPECS);
}

/** Sets the given profile fields (others keep their value) and returns the stored profile. */
export async function updateProfile(username: string, changes: Record<string, unknown>): Promise<Item> {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = { ':true': true };
  const sets = Object.entries(changes).map(([field, value], i) => {
    names[`#f${i}`] = field;
    values[`:v${i}`] = value;
    return `#f${i} = :v${i}`;
  });
  // An empty update still checks that the profile exists.
  const setClause = sets.length > 0 ? `SET ${sets.join(', ')}` : 'SET is_active = :true';
  try {
    const { Attributes } = await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.userProfile(username),
        UpdateExpression: setClause,
        ConditionExpression: 'is_active = :true',
        ...(Object.keys(names).length ? { ExpressionAttributeNames: names } : {}),
        ExpressionAttributeValues: values,
        ReturnValues: 'ALL_NEW',
      }),
    );
    return Attributes!;
  } catch (error) {
    if ((error as { name?: string }).name === 'ConditionalCheckFailedException') throw new NotFound();
    throw error;
  }
}
