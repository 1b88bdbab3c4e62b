import bcrypt from 'bcryptjs';

/**
 * bcrypt work factor. Fixed, so that the decoy below always costs what a real check costs; raise
 * both together (a new DECOY_HASH at the new cost) if it must change.
 */
export const BCRYPT_COST = 10;

export function hashPassword(password: string): Promise<string> {
  return bcrypt.hash(password, BCRYPT_COST);
}

// A hash of a random secret nobody knows, at BCRYPT_COST: checking a password against it costs
// what a real check costs, so an unknown username or an account without a usable password cannot
// be told apart by timing.
const DECOY_HASH = '$2b$10$ytOJaWlPQqVfgZBLYCAVH.v3Gi/7UnQSNM8VkgQexd/Uj8sabQeWm';

/** Checks a password against a stored hash, or does the same work against the decoy. */
export async function verifyPassword(password: string, hash: string | null | undefined): Promise<boolean> {
  const matches = await bcrypt.compare(password, hash || DECOY_HASH);
  return matches && Boolean(hash);
}
