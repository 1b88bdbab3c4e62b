import { describe, expect, it } from 'vitest';
import type { Item } from '#lib/db/batch.ts';
import { listSortKeys } from '#lib/db/keys.ts';
import { INDEXES } from '#lib/db/table.ts';
import { rankCandidates } from '#lib/lists/related.ts';

// How related posts are chosen from the entries of the post's tag lists (lib/lists/related.ts),
// on values: no database.

const entry = (id: string, created: string): Item => ({
  post_id: id,
  slug: `slug-${id}`,
  [INDEXES.postsByCreated.sortKey]: listSortKeys.postCreated(created, id),
});

describe('rankCandidates', () => {
  it('counts the lists each post is in, most first, the newest first among equal counts, and never the post itself', () => {
    const lists = [
      [entry('self', '2026-01-09'), entry('new', '2026-01-08'), entry('both', '2026-01-02'), entry('old', '2026-01-01')],
      [entry('self', '2026-01-09'), entry('both', '2026-01-02'), entry('other', '2026-01-05')],
    ];
    expect(rankCandidates('self', lists).map((c) => [c.postId, c.shared])).toEqual([
      ['both', 2],
      ['new', 1],
      ['other', 1],
      ['old', 1],
    ]);
  });

  it('has no candidates without entries', () => {
    expect(rankCandidates('self', [])).toEqual([]);
    expect(rankCandidates('self', [[entry('self', '2026-01-01')]])).toEqual([]);
  });
});
