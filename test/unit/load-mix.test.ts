import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { MIX, MIX_TOTAL, pickEntry, renderMix } from '../../scripts/load/mix.ts';
import { planRequest } from '../../scripts/load/workload.ts';
import { nextLinkPath, seededRandom, type World } from '../../scripts/load/world.ts';

// The pieces of `npm run load` that need no stack: the mix, the requests it makes, and the mix
// table docs/scale.md quotes.

const world = (): World => ({
  users: [
    { username: 'ada', password: 'pw-a', token: 'a'.repeat(40) },
    { username: 'bob', password: 'pw-b', token: 'b'.repeat(40) },
  ],
  tags: [{ title: 'Serverless', slug: 'serverless' }],
  posts: [
    { slug: 'first', author: 0 },
    { slug: 'second', author: 1 },
  ],
  visited: new Set(),
  visits: [],
  searchWords: ['latency'],
});

describe('the load mix', () => {
  it('adds up to 100% with distinct kinds', () => {
    expect(MIX_TOTAL).toBe(100);
    expect(new Set(MIX.map((entry) => entry.kind)).size).toBe(MIX.length);
  });

  it('gives each entry its share of [0, 1)', () => {
    let start = 0;
    for (const entry of MIX) {
      expect(pickEntry((start + entry.share / 2) / MIX_TOTAL)).toBe(entry);
      start += entry.share;
    }
    expect(pickEntry(0)).toBe(MIX[0]);
    expect(pickEntry(0.999_999)).toBe(MIX[MIX.length - 1]);
  });

  it('builds a request under the API prefix for every kind', () => {
    const random = seededRandom(7);
    const seeded = world();
    for (const entry of MIX) {
      const plan = planRequest(entry, seeded, random);
      expect(plan.path, entry.kind).toMatch(/^\//);
      expect(entry.request.split(' /')[0]!.split(' or '), entry.kind).toContain(plan.method);
    }
  });

  it('sends each first visit once, and repeats only visits answered', () => {
    const random = seededRandom(3);
    const seeded = world();
    const first = MIX.find((entry) => entry.kind === 'post detail, first visit')!;
    const paths = Array.from({ length: 4 }, () => planRequest(first, seeded, random));
    expect(new Set([...seeded.visited]).size).toBe(4);
    expect(() => planRequest(first, seeded, random)).toThrow(/No unread/);
    paths[0]!.onAnswer?.(200, '{}');
    expect(seeded.visits).toHaveLength(1);
  });

  it('reads the next page from a Link header', () => {
    expect(nextLinkPath('<http://127.0.0.1:3000/api/v1/posts?page_size=20&cursor=abc>; rel="next"', 'http://127.0.0.1:3000/api/v1')).toBe(
      '/posts?page_size=20&cursor=abc',
    );
    expect(nextLinkPath(null, 'http://127.0.0.1:3000/api/v1')).toBeUndefined();
  });

  it('is the mix docs/scale.md states', () => {
    const doc = readFileSync(new URL('../../docs/scale.md', import.meta.url), 'utf8');
    expect(doc).toContain(renderMix().join('\n'));
  });
});
