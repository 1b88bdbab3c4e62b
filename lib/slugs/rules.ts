// What a slug may look like. Making one from a title is slugify.ts: it loads the slugify library's
// character map, which functions that only check slugs (every read) need not load at a cold start.

/** Longest slug base; leaves room for a `-N` suffix inside DynamoDB's key limits. */
export const MAX_SLUG_LENGTH = 200;

/** Longest slug with its `-N` suffix: what a stored slug, and so a path's slug, can be at most. */
export const MAX_SUFFIXED_SLUG_LENGTH = MAX_SLUG_LENGTH + 12;

const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

export function isValidSlug(value: string): boolean {
  return value.length <= MAX_SLUG_LENGTH && SLUG_PATTERN.test(value);
}

/** `base`, `base-1`, `base-2`, ... : the n-th candidate for a slug whose base is taken. */
export function slugCandidate(base: string, n: number): string {
  return n === 0 ? base : `${base}-${n}`;
}

/** Which candidate of `base` a slug is (slugCandidate's n); 0 for one that is none of them. */
export function candidateIndex(base: string, slug: string): number {
  const suffix = slug.startsWith(`${base}-`) ? slug.slice(base.length + 1) : '';
  return /^[1-9][0-9]*$/.test(suffix) ? Number(suffix) : 0;
}

/** Whether a path value could name a stored slug; anything else is answered 404 without a read. */
export function couldBeSlug(value: string): boolean {
  return value.length <= MAX_SUFFIXED_SLUG_LENGTH && SLUG_PATTERN.test(value);
}
