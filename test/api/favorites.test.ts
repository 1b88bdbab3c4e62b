import { describe, expect, it } from 'vitest';
import { keys } from '#lib/db/keys.ts';
import { createPost, unique, type TestUser } from '../support/api.ts';
import { useApi } from '../support/fixture.ts';
import { nextLink } from '../support/link.ts';
import { eventually, partition, postIdOf } from '../support/reactions.ts';
import { invariantProblems, settledTable } from './reliability/table.ts';

// Favorites (docs/api.md, Favorites and GET /users/detail/{username}/favorites).

const api = useApi({ users: ['alice', 'bob', 'carol', 'dave'] });
const { alice, bob, carol, dave } = api.users;

const favPath = (slug: string) => `/posts/detail/${slug}/favorite`;
const listPath = (user: TestUser | string) => `/users/detail/${typeof user === 'string' ? user : user.username}/favorites`;
const profileFavorites = async (user: TestUser) => (await user.api.get(`/users/detail/${user.username}`)).body.total_favorites as number;
const slugs = (body: { slug: string }[]) => body.map((post) => post.slug);

describe('favorite state', () => {
  it('POST and DELETE are idempotent; post and profile counts follow', async () => {
    const post = await createPost(alice.api, { title: unique('Liked '), description: 'x', publish: 'true' });
    const before = await profileFavorites(bob);
    expect((await bob.api.get(favPath(post.slug))).body).toEqual({ favorited: false, total_favorites: 0 });
    for (let i = 0; i < 2; i++) {
      const answer = await bob.api.post(favPath(post.slug));
      expect([answer.status, answer.body]).toEqual([200, { favorited: true, total_favorites: 1 }]);
    }
    expect((await carol.api.post(favPath(post.slug), { form: {} })).body).toEqual({ favorited: true, total_favorites: 2 });
    expect((await bob.api.get(favPath(post.slug))).body).toEqual({ favorited: true, total_favorites: 2 });
    expect(await profileFavorites(bob)).toBe(before + 1);
    expect((await dave.api.get(`/posts/detail/${post.slug}`)).body).toMatchObject({ total_favorites: 2 });
    expect((await dave.api.get('/posts')).body.find((p: { slug: string }) => p.slug === post.slug)).toMatchObject({ total_favorites: 2 });
    for (let i = 0; i < 2; i++) {
      const answer = await bob.api.delete(favPath(post.slug));
      expect([answer.status, answer.body]).toEqual([200, { favorited: false, total_favorites: 1 }]);
    }
    expect(await profileFavorites(bob)).toBe(before);
    const stored = await partition(keys.favoritesOf(await postIdOf(post.slug)));
    expect(stored.map((item) => item.user_id)).toEqual([carol.id]);
  });

  it("one's own posts may be favorited, drafts included; another user's draft and an unknown slug are 404", async () => {
    const draft = await createPost(alice.api, { title: unique('Own draft '), description: 'x' });
    expect((await alice.api.post(favPath(draft.slug))).body).toEqual({ favorited: true, total_favorites: 1 });
    for (const slug of [draft.slug, 'no-such-post']) {
      for (const answer of [await bob.api.get(favPath(slug)), await bob.api.post(favPath(slug)), await bob.api.delete(favPath(slug))]) {
        expect([answer.status, answer.body]).toEqual([404, { detail: 'Not found.' }]);
      }
    }
    expect((await api.client().post(favPath(draft.slug))).status).toBe(401);
  });
});

describe('GET /users/detail/{username}/favorites', () => {
  it('newest favorite first, paged with Link and cursor; past the end and a tampered cursor are 404 Invalid page.', async () => {
    const user = await api.user('collector');
    const posts: { slug: string }[] = [];
    for (let i = 0; i < 5; i++) posts.push(await createPost(alice.api, { title: unique(`Fav ${i} `), description: 'x', publish: 'true' }));
    // Favorited in another order than created.
    for (const at of [2, 0, 4, 1, 3]) await user.api.post(favPath(posts[at]!.slug));
    const expected = [3, 1, 4, 0, 2].map((at) => posts[at]!.slug);

    const detail = (await bob.api.get(`/posts/detail/${posts[3]!.slug}`)).body;
    const full = await bob.api.get(listPath(user));
    expect(full.status).toBe(200);
    expect(slugs(full.body)).toEqual(expected);
    expect(full.headers.get('link')).toBeNull();
    expect(full.body[0]).toEqual(detail);

    const seen: string[] = [];
    let page = await bob.api.get(listPath(user), { query: { page_size: '2' } });
    const cursors: string[] = [];
    for (;;) {
      expect(page.status).toBe(200);
      seen.push(...slugs(page.body));
      const next = nextLink(page);
      if (!next) break;
      const url = new URL(next);
      cursors.push(url.searchParams.get('cursor')!);
      page = await bob.api.get(`${url.pathname.replace('/api/v1', '')}${url.search}`);
    }
    expect(seen).toEqual(expected);
    expect(slugs((await bob.api.get(listPath(user), { query: { page: '2', page_size: '2' } })).body)).toEqual(expected.slice(2, 4));

    const refused: Record<string, string>[] = [
      { page: '4', page_size: '2' },
      { page: '0' },
      { page: 'x' },
      { cursor: 'garbage' },
      { cursor: cursors[0]!.slice(0, -2) + 'AA' },
    ];
    for (const query of refused) {
      const answer = await bob.api.get(listPath(user), { query });
      expect([answer.status, answer.body], JSON.stringify(query)).toEqual([404, { detail: 'Invalid page.' }]);
    }
    // A cursor of this list is refused by another user's list and by GET /posts.
    await dave.api.post(favPath(posts[0]!.slug));
    for (const path of [listPath(dave), '/posts']) {
      const answer = await bob.api.get(path, { query: { cursor: cursors[0]! } });
      expect([answer.status, answer.body], path).toEqual([404, { detail: 'Invalid page.' }]);
    }
    expect((await bob.api.get(listPath('nobody-' + unique()))).body).toEqual({ detail: 'Not found.' });
    expect((await bob.api.get(listPath('nobody-' + unique()))).status).toBe(404);
    const empty = await bob.api.get(listPath(await api.user('nofavs')));
    expect([empty.status, empty.body]).toEqual([200, []]);
  });

  it("only posts published now, and the user's own drafts to that user only; a renamed post stays listed; pages stay full", async () => {
    const user = await api.user('keeper');
    const own = await createPost(user.api, { title: unique('My draft '), description: 'x' });
    const later = await createPost(alice.api, { title: unique('Unpublished later '), description: 'x', publish: 'true' });
    const renamed = await createPost(alice.api, { title: unique('Renamed '), description: 'x', publish: 'true' });
    const plain = await createPost(alice.api, { title: unique('Plain '), description: 'x', publish: 'true' });
    for (const post of [plain, renamed, later, own]) await user.api.post(favPath(post.slug));
    expect((await alice.api.put(`/posts/detail/${later.slug}`, { form: { publish: 'false' } })).status).toBe(200);
    const newTitle = unique('Now called ');
    const moved = (await alice.api.put(`/posts/detail/${renamed.slug}`, { form: { title: newTitle } })).body;
    expect(moved.slug).not.toBe(renamed.slug);

    expect(slugs((await user.api.get(listPath(user))).body)).toEqual([own.slug, moved.slug, plain.slug]);
    expect(slugs((await bob.api.get(listPath(user))).body)).toEqual([moved.slug, plain.slug]);
    // Hidden favorites do not shorten a page.
    const first = await bob.api.get(listPath(user), { query: { page_size: '1' } });
    expect(slugs(first.body)).toEqual([moved.slug]);
    expect(nextLink(first)).toBeDefined();
    const second = await bob.api.get(listPath(user), { query: { page_size: '1', page: '2' } });
    expect(slugs(second.body)).toEqual([plain.slug]);
    expect(nextLink(second)).toBeUndefined();
    expect(await profileFavorites(user)).toBe(4);
  });
});

describe('a deleted post', () => {
  it("loses its favorites once the stream consumer has run, and each holder's profile count drops by one", async () => {
    const post = await createPost(alice.api, { title: unique('Doomed '), description: 'x', publish: 'true' });
    const postId = await postIdOf(post.slug);
    const holders = [alice, bob, carol];
    const before = await Promise.all(holders.map(profileFavorites));
    for (const holder of holders) await holder.api.post(favPath(post.slug));
    expect(await Promise.all(holders.map(profileFavorites))).toEqual(before.map((n) => n + 1));
    expect((await alice.api.delete(`/posts/detail/${post.slug}`)).status).toBe(204);
    await eventually(async () => (await partition(keys.favoritesOf(postId))).length === 0);
    expect(await Promise.all(holders.map(profileFavorites))).toEqual(before);
    expect(slugs((await bob.api.get(listPath(bob))).body)).not.toContain(post.slug);
  });
});

describe('concurrency', () => {
  it('one user adding 8 posts at once, 4 of them twice: every answer counts its own favorite; removing them so, none does', async () => {
    const user = await api.user('eager');
    const posts = await Promise.all(
      Array.from({ length: 8 }, (_, i) => createPost(alice.api, { title: unique(`Eager ${i} `), description: 'x', publish: 'true' })),
    );
    const twice = posts.flatMap((post, i) => (i % 2 === 0 ? [post, post] : [post]));
    const added = await Promise.all(twice.map((post) => user.api.post(favPath(post.slug))));
    for (const answer of added) expect([answer.status, answer.body]).toEqual([200, { favorited: true, total_favorites: 1 }]);
    const removed = await Promise.all(twice.map((post) => user.api.delete(favPath(post.slug))));
    for (const answer of removed) expect([answer.status, answer.body]).toEqual([200, { favorited: false, total_favorites: 0 }]);
    expect(await profileFavorites(user)).toBe(0);
  });

  it('votes, switches, favorites and unfavorites from several users racing a post delete lose no count', async () => {
    const users = [bob, carol, dave];
    const before = await Promise.all(users.map(profileFavorites));
    const survivor = await createPost(alice.api, { title: unique('Survivor '), description: 'x', publish: 'true' });
    const doomed = await createPost(alice.api, { title: unique('Raced '), description: 'x', publish: 'true' });
    const ids = { survivor: await postIdOf(survivor.slug), doomed: await postIdOf(doomed.slug) };
    const requests: Promise<{ status: number }>[] = [];
    for (let i = 0; i < 42; i++) {
      const user = users[i % users.length]!;
      const post = i % 2 === 0 ? survivor : doomed;
      const kind = i % 7;
      if (kind === 0) requests.push(user.api.delete(favPath(post.slug)));
      else if (kind < 4) requests.push(user.api.post(favPath(post.slug)));
      else requests.push(user.api.post(`/posts/detail/${post.slug}/vote`, { form: { vote: kind === 4 ? 'down' : 'up' } }));
      if (i === 30) requests.push(alice.api.delete(`/posts/detail/${doomed.slug}`));
    }
    for (const answer of await Promise.all(requests)) expect([200, 204, 404, 503]).toContain(answer.status);
    // A delete told busy (503) stored nothing: the author deletes again.
    for (let status = 503; status === 503;) status = (await alice.api.delete(`/posts/detail/${doomed.slug}`)).status;
    await eventually(async () => (await partition(keys.favoritesOf(ids.doomed))).length === 0 && (await partition(keys.votesOf(ids.doomed))).length === 0);

    const favorites = await partition(keys.favoritesOf(ids.survivor));
    const votes = await partition(keys.votesOf(ids.survivor));
    const detail = (await bob.api.get(`/posts/detail/${survivor.slug}`)).body;
    expect(detail.total_favorites).toBe(favorites.length);
    expect(detail.rating_likes).toBe(votes.filter((v) => v.vote === 'up').length);
    expect(detail.rating_dislikes).toBe(votes.filter((v) => v.vote === 'down').length);
    const after = await Promise.all(users.map(profileFavorites));
    users.forEach((user, at) => expect(after[at], user.username).toBe(before[at]! + favorites.filter((f) => f.user_id === user.id).length));
    // And every count of the file's table, recomputed from its items, with no orphan left.
    expect(invariantProblems(await settledTable(api.table))).toEqual([]);
  });
});
