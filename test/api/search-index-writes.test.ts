import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postTerms } from '#lib/search/terms.ts';
import { onStreamBatch, type StreamBatchUsage } from '#lib/streams/consumer.ts';
import { BUNDLES, createPost, startApi, unique, type TestApi, type TestUser } from '../support/api.ts';

// What the search index costs to keep (docs/performance.md, "Figures of the search index's
// writes"): the write capacity the table's stream consumer spends after one request. A posting per
// term (lib/search/terms.ts: about one per distinct word) is written by a create and deleted by a
// delete; an edit of one word writes a handful, whatever the post's length; what changes no text
// (a visit, a vote, a favorite, a publish, new tags) writes none. The consumer's usage is told by onStreamBatch, which hears the batches handled in this
// process: the functions must run from source here (the bundles run in processes of their own).

let api: TestApi;
let alice: TestUser;
let bob: TestUser;

beforeAll(async () => {
  api = await startApi();
  alice = await api.user('alice');
  bob = await api.user('bob');
});
afterAll(() => api?.close());

/** `count` distinct made-up words (letters only, none beginning another: each ends in `q`, which none has inside). */
function distinctWords(count: number, prefix: string): string[] {
  const letters = 'abcdefghijklmnop';
  return Array.from({ length: count }, (_, n) => {
    let word = '';
    for (let rest = n; word.length < 4 || rest > 0; rest = Math.floor(rest / letters.length)) word += letters[rest % letters.length];
    return `${prefix}${word}q`;
  });
}

/** The write units the stream consumer spent on the records `send` caused (the pollers caught up before and after). */
async function consumerWrites(send: () => Promise<{ status: number }>, expected: number): Promise<number> {
  await api.streams!.caughtUp(120_000);
  const batches: StreamBatchUsage[] = [];
  onStreamBatch((usage) => batches.push(usage));
  try {
    const response = await send();
    expect(response.status).toBe(expected);
    await api.streams!.caughtUp(120_000);
  } finally {
    onStreamBatch(undefined);
  }
  return batches.reduce((sum, batch) => sum + batch.writeUnits, 0);
}

/** The postings of a text: one per term. */
const termsOf = (title: string, description: string) => postTerms({ title, description, keywords: null, meta_description: null });

/** The postings a change of text writes: the terms added or whose words changed, and the terms dropped. */
function termWrites(before: { title: string; description: string }, after: { title: string; description: string }): number {
  const old = termsOf(before.title, before.description);
  const now = termsOf(after.title, after.description);
  const changed = [...now].filter(([term, words]) => old.get(term)?.join(' ') !== words.join(' ')).length;
  return changed + [...old.keys()].filter((term) => !now.has(term)).length;
}

const found = async (q: string) => ((await alice.api.get('/posts', { query: { q } })).body as { slug: string }[]).map((post) => post.slug);

describe.skipIf(BUNDLES)('the stream consumer’s writes to the search index', () => {
  // 3,000 distinct words (about 26,000 characters), some repeated: one posting per distinct word.
  const words = distinctWords(3_000, 'w');
  const description = [...words, ...words.slice(0, 500)].join(' ');
  let long: { slug: string; title: string };

  it('a create writes one posting per term of the title and description', async () => {
    const marker = unique('long').toLowerCase();
    // Two title words: `long` and the marker.
    const title = `Long ${marker}`;
    let created: { slug: string; title: string } | undefined;
    const units = await consumerWrites(async () => {
      const response = await alice.api.post('/posts', { json: { title, description, publish: true } });
      created = response.body as { slug: string; title: string };
      return response;
    }, 201);
    long = created!;
    expect(units).toBe(termsOf(title, description).size);
    expect(units).toBeLessThan(1.2 * (words.length + 2));
    expect(await found(`${words[2_999]} ${marker}`)).toEqual([long.slug]);
  });

  it('a visit, a vote and a favorite by another user write nothing to it', async () => {
    expect(await consumerWrites(() => bob.api.get(`/posts/detail/${long.slug}`), 200)).toBe(0);
    expect(await consumerWrites(() => bob.api.post(`/posts/detail/${long.slug}/vote`, { json: { vote: 'up' } }), 200)).toBe(0);
    expect(await consumerWrites(() => bob.api.post(`/posts/detail/${long.slug}/favorite`), 200)).toBe(0);
  });

  it('an edit that changes one word of the long description writes a handful of items, not the post’s postings', async () => {
    // words[2_999] occurs once: it is dropped and a new word added.
    const edited = description.replace(` ${words[2_999]}`, ' replacementz');
    const units = await consumerWrites(() => alice.api.put(`/posts/detail/${long.slug}`, { json: { description: edited } }), 200);
    expect(units).toBeGreaterThan(0);
    expect(units).toBeLessThanOrEqual(10);
    expect(await found('replacementz')).toEqual([long.slug]);
    expect(await found(words[2_999]!)).toEqual([]);
    expect(await found(words[0]!)).toEqual([long.slug]);
  });

  it("new tags write nothing to it, and a tag's search follows them (the entries tell a tag's posts)", async () => {
    const marker = unique('tagged').toLowerCase();
    const post = (await createPost(alice.api, { title: `Tagged ${marker}`, description: 'plover', tags: 'Alpha', publish: 'true' })) as { slug: string };
    await api.streams!.caughtUp();
    const inTag = async (tag: string) =>
      ((await alice.api.get(`/posts/tagged/${tag}`, { query: { q: marker } })).body as { slug: string }[]).map((p) => p.slug);
    expect(await inTag('alpha')).toEqual([post.slug]);
    expect(await consumerWrites(() => alice.api.put(`/posts/detail/${post.slug}`, { json: { tags: ['Beta'] } }), 200)).toBe(0);
    expect(await inTag('beta')).toEqual([post.slug]);
    expect(await inTag('alpha')).toEqual([]);
  });

  it("a rename that changes one title word puts the terms it added and deletes those it dropped, whatever the post's length", async () => {
    const marker = unique('renamed').toLowerCase();
    const postWords = distinctWords(200, 'r');
    const post = (await createPost(alice.api, { title: `Plover ${marker}`, description: postWords.join(' '), publish: 'true' })) as { slug: string };
    await api.streams!.caughtUp();
    const units = await consumerWrites(() => alice.api.put(`/posts/detail/${post.slug}`, { json: { title: `Dunlin ${marker}` } }), 200);
    // The postings of the terms kept still name the old slug: a search finds the post through its `mine` entry.
    // plover's three terms (p, pl, plov) go and dunlin's (d, du, dunl) come.
    expect(units).toBe(
      termWrites({ title: `Plover ${marker}`, description: postWords.join(' ') }, { title: `Dunlin ${marker}`, description: postWords.join(' ') }),
    );
    expect(units).toBe(6);
    expect(await found(`plover ${marker}`)).toEqual([]);
    const renamed = await found(`dunlin ${marker}`);
    expect(renamed).toHaveLength(1);
    expect(renamed[0]).not.toBe(post.slug);
    expect(await found(`${postWords[199]} ${marker}`)).toEqual(renamed);
    // The long post as well: 3,000 words, one title word changed.
    const longer = `Longer ${long.title.split(' ')[1]}`;
    const longUnits = await consumerWrites(() => alice.api.put(`/posts/detail/${long.slug}`, { json: { title: longer } }), 200);
    expect(longUnits).toBe(termWrites({ title: long.title, description }, { title: longer, description }));
    expect(longUnits).toBeLessThanOrEqual(10);
  });

  it('a publish and an unpublish write nothing to it, and public search follows (a list tells a draft when it reads it)', async () => {
    const marker = unique('draft').toLowerCase();
    const post = (await createPost(alice.api, { title: `Draft ${marker}`, description: distinctWords(300, 'p').join(' '), publish: 'false' })) as {
      slug: string;
    };
    await api.streams!.caughtUp();
    expect(await found(marker)).toEqual([]);
    expect(((await alice.api.get('/posts/me', { query: { q: marker } })).body as { slug: string }[]).map((p) => p.slug)).toEqual([post.slug]);
    expect(await consumerWrites(() => alice.api.put(`/posts/detail/${post.slug}`, { json: { publish: true } }), 200)).toBe(0);
    expect(await found(marker)).toEqual([post.slug]);
    expect(await consumerWrites(() => alice.api.put(`/posts/detail/${post.slug}`, { json: { publish: false } }), 200)).toBe(0);
    expect(await found(marker)).toEqual([]);
  });

  it('a delete deletes one posting per term, and the post is no longer found', async () => {
    const marker = unique('gone').toLowerCase();
    const postWords = distinctWords(400, 'd');
    const post = (await createPost(alice.api, { title: `Gone ${marker}`, description: postWords.join(' '), publish: 'true' })) as { slug: string };
    await api.streams!.caughtUp();
    expect(await found(`${postWords[0]} ${marker}`)).toEqual([post.slug]);

    const units = await consumerWrites(() => alice.api.delete(`/posts/detail/${post.slug}`), 204);
    // The title's terms as well; the post had no visit, vote or favorite to remove.
    expect(units).toBe(termsOf(`Gone ${marker}`, postWords.join(' ')).size);
    expect(await found(postWords[0]!)).toEqual([]);
  });
});
