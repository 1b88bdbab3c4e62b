import type { BatchResult, Item } from '#lib/db/batch.ts';
import { TOTALS, totalKeys, totalOf, totalWrites } from '#lib/db/totals.ts';
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
    // Read-only: set by `npm run admin -- set-moderator` (lib/auth/moderators.ts).
    is_moderator: item.is_moderator === true,
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
    write: tx.update(
      keys.userProfile(username),
      { expression: 'ADD total_favorites :delta', values: { ':delta': delta } },
      { expression: 'attribute_exists(PK)' },
    ),
  };
}

/** Records a login on the profile; fails its condition when the profile is gone. */
export function profileLoginWrite(username: string, at: string, onGone: () => Error): TxWrite {
  return {
    write: tx.update(keys.userProfile(username), { expression: 'SET last_login = :now', values: { ':now': at } }, { expression: 'attribute_exists(PK)' }),
    onConditionFailed: onGone,
  };
}

/**
 * Marks the profile inactive and takes it out of the users list. `wasActive`: the account was read
 * active, so the count of active users goes down, on condition that it still is (a deactivation
 * counts once).
 */
export function profileDeactivationWrites(username: string, wasActive: boolean): TxWrite[] {
  return [
    {
      write: tx.update(
        keys.userProfile(username),
        { expression: `SET is_active = :false REMOVE ${INDEXES.lists.partitionKey}, ${INDEXES.lists.sortKey}`, values: { ':false': false } },
        wasActive ? { expression: 'is_active = :true', values: { ':true': true } } : undefined,
      ),
    },
    ...(wasActive ? activeUsersWrites(username, -1) : []),
  ];
}

/** Marks the profile active again and puts it back in the users list, where its join date placed it (and counts it active again). */
export function profileReactivationWrites(profile: Item): TxWrite[] {
  const wasInactive = profile.is_active !== true;
  return [profileReactivationWrite(profile, wasInactive), ...(wasInactive ? activeUsersWrites(String(profile.username), 1) : [])];
}

function profileReactivationWrite(profile: Item, wasInactive: boolean): TxWrite {
  return {
    write: tx.update(
      keys.userProfile(String(profile.username)),
      {
        expression: `SET is_active = :true, ${INDEXES.lists.partitionKey} = :list, ${INDEXES.lists.sortKey} = :sort`,
        values: { ':true': true, ':list': listPartitions.users, ':sort': listSortKeys.user(String(profile.date_joined), Number(profile.id)) },
      },
      // Counted once: only a profile still inactive is counted back in.
      wasInactive ? { expression: 'attribute_exists(PK) AND is_active = :false', values: { ':false': false } } : { expression: 'attribute_exists(PK)' },
    ),
  };
}

/** The count of active users (GET /users) changed by `delta`, in the shard of `username`. */
export function activeUsersWrites(username: string, delta: number): TxWrite[] {
  return totalWrites(TOTALS.users, username, { active: delta });
}

/** The keys of the count of active users, which GET /users reads with its token. */
export const activeUsersKeys = () => totalKeys(TOTALS.users);

/** The number of active users, from the read of activeUsersKeys(). */
export const activeUsers = (read: BatchResult) => totalOf(read, TOTALS.users, 'active');
