import type { BatchResult, Item } from '#lib/db/batch.ts';
import type { Key } from '#lib/db/keys.ts';
import { NotFound } from '#lib/errors.ts';
import { profileKey } from '#lib/profiles/profile.ts';

/** What a profile's routes read with the token: the profile, unless the username cannot exist. */
export function profileReads(username: string): Key[] {
  const key = profileKey(username);
  return key ? [key] : [];
}

/**
 * The user's profile in the read, deactivated or not (their posts stay published and link to it);
 * 404 for an unknown user.
 */
export function profileDetail(read: BatchResult, username: string): Item {
  const key = profileKey(username);
  const profile = key ? read.get(key) : undefined;
  if (!profile) throw new NotFound();
  return profile;
}
