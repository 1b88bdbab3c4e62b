import { createHash } from 'node:crypto';
import type { BatchResult } from './batch.ts';
import { keys, type Key } from './keys.ts';
import { tx, type TxWrite } from './transact.ts';

// Totals that many writes change (the published posts of the site, the active users, the tags):
// each is kept in several shard items, one chosen by the thing counted, and summed when read. A
// write ADDs to its shard inside its own transaction, so concurrent writes rarely meet on one item
// and never on one partition, and the sum of the shards is always the committed count.

export interface ShardedTotal {
  /** The name in the shards' keys. */
  name: string;
  /** How many shard items: every read reads them all (one strongly consistent item each). */
  shards: number;
}

export const TOTALS = {
  /** Published posts (`posts`) and published featured posts (`featured`): every publish changes it. */
  posts: { name: 'POSTS', shards: 8 },
  /** Active users (`active`). */
  users: { name: 'USERS', shards: 4 },
  /** Tags (`tags`). */
  tags: { name: 'TAGS', shards: 4 },
} satisfies Record<string, ShardedTotal>;

/** The keys of every shard of a total: what a list reads with its token. */
export function totalKeys(total: ShardedTotal): Key[] {
  return Array.from({ length: total.shards }, (_, shard) => keys.totalShard(total.name, shard));
}

/** The shard a thing counted (a post id, a username, a tag slug) always writes to. */
export function shardOf(total: ShardedTotal, seed: string): number {
  return createHash('sha256').update(seed, 'utf8').digest().readUInt32BE(0) % total.shards;
}

/** An ADD of `deltas` (attribute: change) to the item of `key`; none when every change is 0. */
export function addWrites(key: Key, deltas: Record<string, number>): TxWrite[] {
  const changed = Object.entries(deltas).filter(([, delta]) => delta !== 0);
  if (changed.length === 0) return [];
  const names = Object.fromEntries(changed.map(([attribute], i) => [`#t${i}`, attribute]));
  const values = Object.fromEntries(changed.map(([, delta], i) => [`:t${i}`, delta]));
  const expression = `ADD ${changed.map((_, i) => `#t${i} :t${i}`).join(', ')}`;
  return [{ write: tx.update(key, { expression, names, values }) }];
}

/** ADDs `deltas` to the shard of `seed`. */
export function totalWrites(total: ShardedTotal, seed: string, deltas: Record<string, number>): TxWrite[] {
  return addWrites(keys.totalShard(total.name, shardOf(total, seed)), deltas);
}

/**
 * The sum of an attribute over a total's shards as read (an absent shard counts 0). Never below 0:
 * a table older than its totals counts from their first write on, and a thing counted before
 * then and removed since would otherwise make it negative.
 */
export function totalOf(read: BatchResult, total: ShardedTotal, attribute: string): number {
  const sum = totalKeys(total).reduce((acc, key) => acc + Number(read.get(key)?.[attribute] ?? 0), 0);
  return Math.max(0, sum);
}
