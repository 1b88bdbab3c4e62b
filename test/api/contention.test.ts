import { describe, expect, it } from 'vitest';
import { createPost, unique } from '../support/api.ts';
import { useApi } from '../support/fixture.ts';
import { invariantProblems, scanTable } from './reliability/table.ts';

// Requests that race for one item each get their answer (docs/reliability.md, "Contention"): the
// writers of one post commit one after the other within the retry budget, and one that loses a
// race waits its turn, never answering 5xx. Each scenario is the issue's: 20 parallel creates of
// one title by one author, 16 parallel publish and unpublish toggles of one post, 20 parallel
// edits of one post's description (with the `modified` read, and stale).

const api = useApi({ users: ['alice', 'bob'] });
const { alice, bob } = api.users;

const statuses = (responses: { status: number }[]) => responses.map((response) => response.status);

describe('contention on one item', () => {
  it('20 parallel creates of one title by one author: twenty 201 under distinct slugs, and the counts exact', async () => {
    const title = unique('Contended title');
    const before = (await alice.api.get(`/users/detail/${alice.username}`)).body as { total_posts: number };
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, i) => alice.api.post('/posts', { form: { title, description: `copy ${i}`, tags: 'Contended', publish: 'true' } })),
    );
    expect(statuses(responses)).toEqual(Array(20).fill(201));
    const slugs = responses.map((response) => (response.body as { slug: string }).slug);
    expect(new Set(slugs).size).toBe(20);
    const after = (await alice.api.get(`/users/detail/${alice.username}`)).body as { total_posts: number };
    expect(after.total_posts).toBe(before.total_posts + 20);
    await api.streams!.caughtUp();
    expect(invariantProblems(await scanTable(api.table))).toEqual([]);
  });

  it('16 parallel publish and unpublish toggles of one post by its author: sixteen 200, and every count exact after', async () => {
    const post = await createPost(alice.api, { title: unique('Toggled'), description: 'toggled', tags: 'Toggle', publish: 'true' });
    const responses = await Promise.all(
      Array.from({ length: 16 }, (_, i) => alice.api.put(`/posts/detail/${post.slug}`, { form: { publish: i % 2 === 0 ? 'false' : 'true' } })),
    );
    expect(statuses(responses)).toEqual(Array(16).fill(200));
    const final = (await alice.api.get(`/posts/detail/${post.slug}`)).body as { publish: boolean };
    const tag = (await bob.api.get('/tags/detail/toggle')).body as { total_posts: number };
    const listed = (await bob.api.get('/posts/tagged/toggle')).body as { slug: string }[];
    expect(tag.total_posts).toBe(listed.length);
    expect(listed.some((listedPost) => listedPost.slug === post.slug)).toBe(final.publish);
    await api.streams!.caughtUp();
    expect(invariantProblems(await scanTable(api.table))).toEqual([]);
  });

  it('20 parallel edits of one post’s description: twenty 200 without `modified`; with the one read, one 200 and 409 for the others', async () => {
    const post = (await createPost(alice.api, { title: unique('Edited'), description: 'first', publish: 'true' })) as { slug: string; modified: string };
    const blind = await Promise.all(Array.from({ length: 20 }, (_, i) => alice.api.put(`/posts/detail/${post.slug}`, { form: { description: `edit ${i}` } })));
    expect(statuses(blind)).toEqual(Array(20).fill(200));
    const stored = (await alice.api.get(`/posts/detail/${post.slug}`)).body as { description: string; modified: string };
    expect(blind.map((response) => (response.body as { description: string }).description)).toContain(stored.description);

    const read = stored.modified;
    const careful = await Promise.all(
      Array.from({ length: 20 }, (_, i) => alice.api.put(`/posts/detail/${post.slug}`, { form: { description: `careful ${i}`, modified: read } })),
    );
    const codes = statuses(careful);
    expect(codes.filter((code) => code === 200)).toHaveLength(1);
    expect(codes.filter((code) => code === 409)).toHaveLength(19);
    for (const response of careful.filter((response) => response.status === 409)) {
      expect(response.body).toEqual({ detail: 'The post was changed since you read it.' });
    }
    await api.streams!.caughtUp();
    expect(invariantProblems(await scanTable(api.table))).toEqual([]);
  });
});
