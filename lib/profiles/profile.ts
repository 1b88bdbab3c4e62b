import type { Item } from '#lib/db/batch.ts';
import { keys, listPartitions, listSortKeys, type Key } from '#lib/db/keys.ts';
import { INDEXES } from '#lib/db/table.ts';
import { tx, type TxWrite } from '#lib/db/transact.ts';
import { profileTimestamp } from '#lib/time.ts';
import type { Specs } from '#lib/validation.ts';

// The profile entity: the item a user is listed and shown by (the login secrets are the account's
// credentials item, lib/auth/account.ts), its list-index keys while active, its counters, and its
// API shape.

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

/** The API shape of a stored profile, fields in the contract's order. */
export function profileToApi(item: Item) {
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

/** The profile of a new account: listed among the users, no posts, every editable field empty. */
export function newProfileItem(user: { id: number; username: string }, joined: string): Item {
  return {
    ...keys.userProfile(user.username),
    [INDEXES.lists.partitionKey]: listPartitions.users,
    [INDEXES.lists.sortKey]: listSortKeys.user(joined, user.id),
    id: user.id,
    username: user.username,
    is_active: true,
    date_joined: joined,
    last_login: null,
    total_posts: 0,
    total_favorites: 0,
    total_featured_posts: 0,
    ...Object.fromEntries(PROFILE_FIELDS.map((field) => [field, null])),
  };
}

/** Adds to the author's published and featured post counts. */
export function profileCounterWrite(username: string, postsDelta: number, featuredDelta: number): TxWrite {
  return {
    write: tx.update(
      keys.userProfile(username),
      { expression: 'ADD total_posts :posts, total_featured_posts :featured', values: { ':posts': postsDelta, ':featured': featuredDelta } },
      { expression: 'attribute_exists(PK)' },
    ),
  };
}

/** Adds to the favorites a user holds (lib/favorites/favorite.ts). */
export function profileFavoritesWrite(username: string, delta: number): TxWrite {
  return {
    write: tx.update(keys.userProfile(username), { expression: 'ADD total_favorites :delta', values: { ':delta': delta } }, { expression: 'attribute_exists(PK)' }),
  };
}

/** Records a login on the profile; fails its condition when the profile is gone. */
export function profileLoginWrite(username: string, at: string, onGone: () => Error): TxWrite {
  return {
    write: tx.update(keys.userProfile(username), { expression: 'SET last_login = :now', values: { ':now': at } }, { expression: 'attribute_exists(PK)' }),
    onConditionFailed: onGone,
  };
}

/** Marks the profile inactive and takes it out of the users list. */
export function profileDeactivationWrite(username: string): TxWrite {
  return {
    write: tx.update(keys.userProfile(username), {
      expression: `SET is_active = :false REMOVE ${INDEXES.lists.partitionKey}, ${INDEXES.lists.sortKey}`,
      values: { ':false': false },
    }),
  };
}

/** Marks the profile active again and puts it back in the users list, where its join date placed it. */
export function profileReactivationWrite(profile: Item): TxWrite {
  return {
    write: tx.update(
      keys.userProfile(String(profile.username)),
      {
        expression: `SET is_active = :true, ${INDEXES.lists.partitionKey} = :list, ${INDEXES.lists.sortKey} = :sort`,
        values: { ':true': true, ':list': listPartitions.users, ':sort': listSortKeys.user(String(profile.date_joined), Number(profile.id)) },
      },
      { expression: 'attribute_exists(PK)' },
    ),
  };
}
