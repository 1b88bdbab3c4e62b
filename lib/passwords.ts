import bcrypt from 'bcryptjs';

/** bcrypt work factor; never below 10. */
export function bcryptCost(): number {
  const cost = Number(process.env.BCRYPT_COST);
  return Number.isInteger(cost) && cost >= 10 && cost <= 15 ? cost : 10;
}

export function hashPassword(password: string): Promise<string> {
  return bcrypt.hash(password, bcryptCost());
}

// A hash of a random secret nobody knows, at the default cost: checking a password against it
// costs what a real check costs, so an unknown username or an account without a usable
// password cannot be told apart by timing.
const DECOY_HASH = '$2b$10$ytOJaWlPQqVfgZBLYCAVH.v3Gi/7UnQSNM8VkgQexd/Uj8sabQeWm';

/** Checks a password against a stored hash, or does the same work against a decoy. */
export async function verifyPassword(password: string, hash: string | null | undefined): Promise<boolean> {
  const matches = await bcrypt.compare(password, hash || DECOY_HASH);
  return matches && Boolean(hash);
}
