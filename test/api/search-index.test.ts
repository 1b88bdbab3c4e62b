import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db } from '#lib/db/client.ts';
import { keys } from '#lib/db/keys.ts';
import { applyPostingChange, indexedPost, postingChange } from '#lib/search/postings.ts';
import { invariantProblems, scanTable } from './reliability/table.ts';
import { createPost, startApi, unique, type TestApi, type TestUser } from '../support/api.ts';

// The search index's writes (lib/search/postings.ts): a post's postings go out in batches,
// unconditioned, and are then checked against the post's current text version. A record handled
// after a newer text's (a create's INSERT after its rename's, as two shards of a stream may
// deliver them) must not leave its words or its old slug behind.

let api: TestApi;
let alice: TestUser;

beforeAll(async () => {
  api = await startApi();
  alice = await api.user('alice');
});
afterAll(() => api?.close());

const textItem = async (slug: string) => (await db().send(new GetCommand({ TableName: api.table, Key: keys.post(slug), ConsistentRead: true }))).Item;
const search = async (q: string) => ((await alice.api.get('/posts', { query: { q } })).body as { slug: string }[]).map((post) => post.slug);

describe('a stale create record handled after the rename', () => {
  it('is brought to the current text: the old words and slug are gone, the current ones stay', async () => {
    const marker = unique('stale').replaceAll('-', '');
    const post = await createPost(alice.api, { title: `Plover ${marker}`, description: 'sandpiper dunlin', publish: 'true' });
    await api.streams!.caughtUp();
    const created = indexedPost(await textItem(post.slug));
    expect(created?.text_version).toBe(1);

    const renamed = await alice.api.put(`/posts/detail/${post.slug}`, { json: { title: `Curlew ${marker}`, description: 'sandpiper godwit' } });
    expect(renamed.status).toBe(200);
    const slug = (renamed.body as { slug: string }).slug;
    expect(slug).not.toBe(post.slug);
    await api.streams!.caughtUp();
    expect(await search(`dunlin ${marker}`)).toEqual([]);

    // The create's INSERT, delivered late: its postings (old words, old slug) go out and are repaired.
    await applyPostingChange(postingChange(undefined, created));

    expect(await search(`dunlin ${marker}`)).toEqual([]);
    expect(await search(`plover ${marker}`)).toEqual([]);
    expect(await search(`sandpiper ${marker}`)).toEqual([slug]);
    expect(await search(`godwit curlew ${marker}`)).toEqual([slug]);
    // Exactly the current text's postings, each with the current slug and version.
    expect(invariantProblems(await scanTable(api.table))).toEqual([]);
  });

  it('of a post deleted since leaves no posting behind', async () => {
    const marker = unique('gone').replaceAll('-', '');
    const post = await createPost(alice.api, { title: `Turnstone ${marker}`, description: 'knot', publish: 'true' });
    await api.streams!.caughtUp();
    const created = indexedPost(await textItem(post.slug));
    expect((await alice.api.delete(`/posts/detail/${post.slug}`)).status).toBe(204);
    await api.streams!.caughtUp();

    await applyPostingChange(postingChange(undefined, created));

    expect(await search(`turnstone ${marker}`)).toEqual([]);
    expect(invariantProblems(await scanTable(api.table))).toEqual([]);
  });
});
