import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keys } from '#lib/db/keys.ts';
import { FRESH_LIMIT } from '#lib/lists/search.ts';
import { searchIndexing } from '#lib/search/indexing.ts';
import type { TableChange } from '#lib/streams/records.ts';
import { countDynamoDbCalls, type CallCounter } from '../support/dynamodb-calls.ts';
import { nextLink } from '../support/link.ts';
import { startApi, unique, type TestApi, type TestUser } from '../support/api.ts';

// A search while the index lags (lib/search/backlog.ts): here no stream consumer runs, so the
// index holds none of the posts, as when a burst puts it behind. The fresh window alone finds the
// newest FRESH_LIMIT of them; once the consumer states its backlog (its hook, called as a batch's
// would be), a search finds every post changed since, in the same two round trips; withdrawn,
// the fresh window alone again.

let api: TestApi;
let alice: TestUser;
let calls: CallCounter;

beforeAll(async () => {
  api = await startApi({ streams: false });
  alice = await api.user('alice');
  calls = countDynamoDbCalls();
});
afterAll(async () => {
  calls?.detach();
  await api?.close();
});

/** Every slug a search for `q` finds, page after page, in order; the first page's round trips and the posts it read. */
async function searchAll(q: string, pageSize = 100): Promise<{ slugs: Set<string>; order: string[]; rounds: number; firstPageReads: number }> {
  const order: string[] = [];
  let next: string | undefined;
  const usage = await calls.usage(async () => {
    const response = await alice.api.get('/posts', { query: { q, page_size: String(pageSize) } });
    expect(response.status).toBe(200);
    order.push(...(response.body as { slug: string }[]).map((post) => post.slug));
    next = nextLink(response);
  });
  while (next) {
    const response = await alice.api.get(next);
    order.push(...(response.body as { slug: string }[]).map((post) => post.slug));
    next = nextLink(response);
  }
  return { slugs: new Set(order), order, rounds: usage.rounds, firstPageReads: usage.rcu };
}

const textChange = (slug: string, modified: string): TableChange => ({
  kind: 'INSERT',
  keys: { ...keys.post(slug) },
  newImage: { ...keys.post(slug), modified },
  sequenceNumber: '1',
});

describe('a search while the index lags behind a burst of creates', () => {
  it('finds every post changed since the consumer fell behind once it says so, in two round trips', async () => {
    const word = unique('lagging').replaceAll('-', '').toLowerCase();
    const lone = unique('solitary').replaceAll('-', '').toLowerCase();
    // The oldest of the burst, with a word none of the others has.
    const first = await alice.api.post('/posts', { json: { title: `Alone ${lone}`, description: 'burst', publish: true } });
    expect(first.status).toBe(201);
    const created: { slug: string; created: string }[] = [];
    let next = 0;
    const total = FRESH_LIMIT + 80;
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (next < total) {
          const n = next++;
          const response = await alice.api.post('/posts', { json: { title: `Lagging ${n} ${word}`, description: 'burst', publish: true } });
          expect(response.status).toBe(201);
          created.push(response.body as { slug: string; created: string });
        }
      }),
    );
    const oldest = (first.body as { modified: string }).modified;

    // The index holds none of them: the fresh window finds the newest FRESH_LIMIT.
    const before = await searchAll(word);
    expect(before.slugs.size).toBe(FRESH_LIMIT);
    expect(before.rounds).toBe(2);

    // The consumer starts a batch whose oldest change is that first create, seconds old: it says so.
    await new Promise((resolve) => setTimeout(resolve, 5_500));
    await searchIndexing.beforeBatch!([textChange(created[0]!.slug, oldest)]);
    const during = await searchAll(word);
    expect([...during.slugs].sort()).toEqual(created.map((post) => post.slug).sort());
    expect(during.rounds).toBe(2);
    // Pages of 20 read the fresh posts that may reach each page, not all of them: the same posts,
    // each once, newest first, page 1 in two round trips.
    const paged = await searchAll(word, 20);
    expect(paged.order).toEqual([...created].sort((a, b) => b.created.localeCompare(a.created)).map((post) => post.slug));
    expect(paged.rounds).toBe(2);
    // Page 1 reads the 21 + FRESH_LIMIT newest posts (text and stats: 1 RCU each, eventually
    // consistent), not all 180, beside its queries (a few RCU).
    expect(paged.firstPageReads).toBeLessThan(20 + 1 + FRESH_LIMIT + 20);
    // A word only the oldest post has: the newest fresh posts do not match, so the others are read
    // too (one more round trip), and it is found.
    const alone = await searchAll(lone, 20);
    expect([...alone.slugs]).toEqual([(first.body as { slug: string }).slug]);
    expect(alone.rounds).toBe(3);

    // A batch ends with a change of a moment ago: caught up, it withdraws the statement.
    await searchIndexing.afterBatch!([textChange(created[0]!.slug, new Date().toISOString())]);
    expect((await searchAll(word)).slugs.size).toBeLessThanOrEqual(FRESH_LIMIT);
  }, 120_000);
});
