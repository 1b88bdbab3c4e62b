import type { BatchResult, Item } from '#lib/db/batch.ts';
import type { Key } from '#lib/db/keys.ts';
import { NotFound } from '#lib/http/errors.ts';
import { activeProfile, profileKey } from './profile.ts';

/** What a profile's routes read with the token: the profile, unless the username cannot exist. */
export function profileReads(username: string): Key[] {
  const key = profileKey(username);
  return key ? [key] : [];
}

/** The active user's profile in the read; 404 for an unknown or deactivated user. */
export function profileDetail(read: BatchResult, username: string): Item {
  const key = profileKey(username);
  const profile = activeProfile(key ? read.get(key) : undefined);
  if (!profile) throw new NotFound();
  return profile;
}
