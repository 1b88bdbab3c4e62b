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

/** Every slug a search for `q` finds, page after page (100 a page), and the first page's round trips. */
async function searchAll(q: string): Promise<{ slugs: Set<string>; rounds: number }> {
  const slugs = new Set<string>();
  let rounds = 0;
  let next: string | undefined;
  const usage = await calls.usage(async () => {
    const response = await alice.api.get('/posts', { query: { q, page_size: '100' } });
    expect(response.status).toBe(200);
    for (const post of response.body as { slug: string }[]) slugs.add(post.slug);
    next = nextLink(response);
  });
  rounds = usage.rounds;
  while (next) {
    const response = await alice.api.get(next);
    for (const post of response.body as { slug: string }[]) slugs.add(post.slug);
    next = nextLink(response);
  }
  return { slugs, rounds };
}

const textChange = (slug: string, modified: string): TableChange => ({ kind: 'INSERT', keys: { ...keys.post(slug) }, newImage: { ...keys.post(slug), modified }, sequenceNumber: '1' });

describe('a search while the index lags behind a burst of creates', () => {
  it('finds every post changed since the consumer fell behind once it says so, in two round trips', async () => {
    const word = unique('lagging').replaceAll('-', '').toLowerCase();
    const created: { slug: string; modified: string }[] = [];
    let next = 0;
    const total = FRESH_LIMIT + 30;
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (next < total) {
          const n = next++;
          const response = await alice.api.post('/posts', { json: { title: `Lagging ${n} ${word}`, description: 'burst', publish: true } });
          expect(response.status).toBe(201);
          created.push(response.body as { slug: string; modified: string });
        }
      }),
    );
    const oldest = created.map((post) => post.modified).sort()[0]!;

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

    // A batch ends with a change of a moment ago: caught up, it withdraws the statement.
    await searchIndexing.afterBatch!([textChange(created[0]!.slug, new Date().toISOString())]);
    expect((await searchAll(word)).slugs.size).toBeLessThanOrEqual(FRESH_LIMIT);
  }, 120_000);
});
