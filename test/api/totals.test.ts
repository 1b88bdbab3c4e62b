import { describe, expect, it } from 'vitest';
import { deactivateUser } from '#lib/auth/deactivate.ts';
import { reactivateUser } from '#lib/auth/reactivate.ts';
import { setFeatured } from '#lib/posts/feature.ts';
import { createPost, unique, type ApiClient, type ApiResponse, type TestUser } from '../support/api.ts';
import { useApi } from '../support/fixture.ts';

// Totals (docs/api.md, "Totals"): every list that knows how long it is says so in X-Total-Count,
// from counters written in the same transaction as the change they count. Each check reads the
// whole list (every page, by its Link) and compares its length with the header of page 1.

const api = useApi({ users: ['alice', 'bob'], apiEnvironment: { PUBLIC_READS: 'true' } });
const { alice, bob } = api.users;

const totalOf = (response: ApiResponse) => {
  const value = response.headers.get('x-total-count');
  return value === null ? null : Number(value);
};

/** Every item of a list, following its Link, and the total page 1 announced. */
async function wholeList(client: ApiClient, path: string, query: Record<string, string> = {}) {
  const first = await client.get(path, { query: { ...query, page_size: '7' } });
  expect(first.status, `${path} ${JSON.stringify(query)}: ${first.text}`).toBe(200);
  const items = [...(first.body as unknown[])];
  let link = first.headers.get('link');
  while (link) {
    const next = await client.get(/^<([^>]+)>/.exec(link)![1]!);
    expect(next.status).toBe(200);
    items.push(...(next.body as unknown[]));
    link = next.headers.get('link');
  }
  return { total: totalOf(first), items };
}

/** Asserts the header of every list with a total against what the list holds, for `users`' own lists. */
async function expectTotalsExact(users: TestUser[], tagSlugs: string[]) {
  const checks: [ApiClient, string, Record<string, string>][] = [
    [alice.api, '/posts', {}],
    [alice.api, '/posts', { sort: 'featured' }],
    [alice.api, '/posts', { sort: 'views' }],
    [api.client(), '/posts', {}],
    [alice.api, '/users', {}],
    [alice.api, '/tags', {}],
  ];
  for (const user of users) {
    for (const sort of ['newest', 'featured']) {
      checks.push([alice.api, `/posts/author/${user.username}`, { sort }]);
      checks.push([user.api, '/posts/me', { sort }]);
      checks.push([user.api, '/posts/me', { sort, publish: 'true' }]);
      checks.push([user.api, '/posts/me', { sort, publish: 'false' }]);
    }
  }
  for (const slug of tagSlugs) for (const sort of ['newest', 'featured']) checks.push([alice.api, `/posts/tagged/${slug}`, { sort }]);
  for (const [client, path, query] of checks) {
    const { total, items } = await wholeList(client, path, query);
    expect(total, `${path} ${JSON.stringify(query)}`).toBe(items.length);
  }
}

const put = async (user: TestUser, slug: string, form: Record<string, string>) => {
  const response = await user.api.put(`/posts/detail/${slug}`, { form });
  expect(response.status, response.text).toBe(200);
  return response.body as { slug: string };
};

describe('X-Total-Count', () => {
  it('follows creates, publishes, unpublishes, features, deletes, deactivations and reactivations', async () => {
    const tagTitle = unique('Counted');
    await expectTotalsExact([alice, bob], []);
    const a1 = await createPost(alice.api, { title: unique('A1 '), description: 'one', publish: 'true', tags: tagTitle });
    const a2 = await createPost(alice.api, { title: unique('A2 '), description: 'two', publish: 'true' });
    const a3 = await createPost(alice.api, { title: unique('A3 '), description: 'three', tags: tagTitle });
    const b1 = await createPost(bob.api, { title: unique('B1 '), description: 'four', publish: 'true', tags: tagTitle });
    const tag = (await alice.api.get('/tags', { query: { q: tagTitle.toLowerCase() } })).body[0].slug as string;
    await expectTotalsExact([alice, bob], [tag]);
    expect(totalOf(await alice.api.get(`/posts/tagged/${tag}`))).toBe(2);

    await setFeatured(a1.slug, true);
    await setFeatured(b1.slug, true);
    await expectTotalsExact([alice, bob], [tag]);
    expect(totalOf(await alice.api.get('/posts', { query: { sort: 'featured' } }))).toBe(2);

    // A featured post unpublished stays featured: a draft the caller's own featured list counts.
    await put(alice, a1.slug, { publish: 'false' });
    await put(alice, a3.slug, { publish: 'true' });
    await expectTotalsExact([alice, bob], [tag]);
    expect(totalOf(await alice.api.get('/posts/me', { query: { sort: 'featured', publish: 'false' } }))).toBe(1);

    await put(alice, a1.slug, { publish: 'true', tags: '' });
    await setFeatured(b1.slug, false);
    expect((await alice.api.delete(`/posts/detail/${a2.slug}`)).status).toBe(204);
    await expectTotalsExact([alice, bob], [tag]);

    const carol = await api.user('carol');
    const before = totalOf(await alice.api.get('/users'));
    await deactivateUser(carol.username);
    await deactivateUser(carol.username);
    expect(totalOf(await alice.api.get('/users'))).toBe(before! - 1);
    await expectTotalsExact([alice, bob], [tag]);
    await reactivateUser(carol.username);
    await reactivateUser(carol.username);
    expect(totalOf(await alice.api.get('/users'))).toBe(before);
    // carol's tokens were revoked by the deactivation: her lists are checked as others see them.
    await expectTotalsExact([alice, bob], [tag]);
    expect(totalOf(await alice.api.get(`/posts/author/${carol.username}`))).toBe(0);

    expect((await alice.api.post('/tags', { form: { title: unique('Fresh') } })).status).toBe(201);
    await expectTotalsExact([alice], []);
  }, 120_000);

  it('is sent on HEAD and on 304, and exposed to browsers', async () => {
    await createPost(alice.api, { title: unique('Head '), description: 'x', publish: 'true' });
    for (const path of ['/posts', '/posts/me', `/posts/author/${alice.username}`, '/users', '/tags']) {
      const got = await alice.api.get(path);
      const total = totalOf(got);
      expect(total, path).not.toBeNull();
      const head = await alice.api.request('HEAD', path);
      expect(head.status).toBe(200);
      expect(totalOf(head), path).toBe(total);
      const notModified = await alice.api.get(path, { headers: { 'If-None-Match': got.headers.get('etag')! } });
      expect(notModified.status, path).toBe(304);
      expect(totalOf(notModified), path).toBe(total);
      const cors = await alice.api.get(path, { headers: { Origin: 'https://site.example' } });
      expect((cors.headers.get('access-control-expose-headers') ?? '').toLowerCase(), path).toContain('x-total-count');
    }
    const anonymous = await api.client().request('HEAD', '/posts');
    expect(totalOf(anonymous)).toBe(totalOf(await alice.api.get('/posts')));
  });

  it('is absent from a search, a filtered tags list and a favorites list; a q without a word lists as if absent', async () => {
    const word = unique('findme').toLowerCase();
    const post = await createPost(alice.api, { title: `Searched ${word}`, description: 'x', publish: 'true' });
    await api.streams!.caughtUp();
    for (const path of ['/posts', '/posts/me', `/posts/author/${alice.username}`]) {
      const found = await alice.api.get(path, { query: { q: word } });
      expect(found.status).toBe(200);
      expect(found.body.map((p: { slug: string }) => p.slug)).toContain(post.slug);
      expect(found.headers.has('x-total-count'), path).toBe(false);
      const wordless = await alice.api.get(path, { query: { q: ' !? ' } });
      expect(totalOf(wordless), path).toBe(totalOf(await alice.api.get(path)));
    }
    expect((await alice.api.get('/tags', { query: { q: 'x' } })).headers.has('x-total-count')).toBe(false);
    expect((await alice.api.post(`/posts/detail/${post.slug}/favorite`)).status).toBe(200);
    const favorites = await alice.api.get(`/users/detail/${alice.username}/favorites`);
    expect(favorites.status).toBe(200);
    expect(favorites.headers.has('x-total-count')).toBe(false);
  });

  it('stays exact under a burst of parallel creates and publish toggles, with no 503', async () => {
    const tagTitle = unique('Burst');
    const writers = [alice, bob, await api.user('dave')];
    const statuses: number[] = [];
    const created = await Promise.all(
      Array.from({ length: 30 }, async (_, i) => {
        const response = await writers[i % writers.length]!.api.post('/posts', {
          form: { title: unique(`Burst ${i} `), description: 'b', publish: i % 2 === 0 ? 'true' : 'false', ...(i % 3 === 0 ? { tags: tagTitle } : {}) },
        });
        statuses.push(response.status);
        return { author: writers[i % writers.length]!, slug: (response.body as { slug: string }).slug, publish: i % 2 === 0 };
      }),
    );
    expect(
      statuses.every((status) => status === 201),
      statuses.join(','),
    ).toBe(true);
    const toggles = await Promise.all(
      created.map(({ author, slug, publish }) => author.api.put(`/posts/detail/${slug}`, { form: { publish: publish ? 'false' : 'true' } })),
    );
    expect(toggles.map((response) => response.status).filter((status) => status !== 200)).toEqual([]);
    await Promise.all(created.slice(0, 10).map(({ slug }, i) => setFeatured(slug, i % 2 === 0)));
    const tag = (await alice.api.get('/tags', { query: { q: tagTitle.toLowerCase() } })).body[0].slug as string;
    await expectTotalsExact(writers, [tag]);
  }, 120_000);
});
