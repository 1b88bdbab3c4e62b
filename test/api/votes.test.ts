import { describe, expect, it } from 'vitest';
import { authenticate } from '#lib/auth/authenticate.ts';
import { keys } from '#lib/db/keys.ts';
import { AuthenticationFailed } from '#lib/errors.ts';
import { postReads } from '#lib/posts/detail.ts';
import { castVote } from '#lib/votes/cast.ts';
import { createPost, unique } from '../support/api.ts';
import { useApi } from '../support/fixture.ts';
import { eventually, partition, postIdOf } from '../support/reactions.ts';

// Votes (docs/api.md, Votes).

const api = useApi({ users: ['alice', 'bob', 'carol', 'dave'] });
const { alice, bob, carol, dave } = api.users;

const published = (title = unique('Voted ')) => createPost(alice.api, { title, description: 'body', publish: 'true' });
const votePath = (slug: string) => `/posts/detail/${slug}/vote`;

describe('vote state', () => {
  it('up, the same again, the other way, removal: one count per user, moved and removed', async () => {
    const post = await published();
    expect((await bob.api.get(votePath(post.slug))).body).toEqual({ vote: null, rating_likes: 0, rating_dislikes: 0 });

    let answer = await bob.api.post(votePath(post.slug), { form: { vote: 'up' } });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ vote: 'up', rating_likes: 1, rating_dislikes: 0 });
    answer = await bob.api.post(votePath(post.slug), { json: { vote: 'up' } });
    expect(answer.body).toEqual({ vote: 'up', rating_likes: 1, rating_dislikes: 0 });
    answer = await carol.api.post(votePath(post.slug), { form: { vote: 'up' } });
    expect(answer.body).toEqual({ vote: 'up', rating_likes: 2, rating_dislikes: 0 });
    answer = await bob.api.post(votePath(post.slug), { form: { vote: 'down' } });
    expect(answer.body).toEqual({ vote: 'down', rating_likes: 1, rating_dislikes: 1 });
    expect((await bob.api.get(votePath(post.slug))).body).toEqual({ vote: 'down', rating_likes: 1, rating_dislikes: 1 });
    expect((await carol.api.get(votePath(post.slug))).body).toEqual({ vote: 'up', rating_likes: 1, rating_dislikes: 1 });

    answer = await bob.api.delete(votePath(post.slug));
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ vote: null, rating_likes: 1, rating_dislikes: 0 });
    answer = await bob.api.delete(votePath(post.slug));
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ vote: null, rating_likes: 1, rating_dislikes: 0 });
    // The author sees the counts and has no vote.
    expect((await alice.api.get(votePath(post.slug))).body).toEqual({ vote: null, rating_likes: 1, rating_dislikes: 0 });

    const postId = await postIdOf(post.slug);
    const stored = await partition(keys.votesOf(postId));
    expect(stored.map((item) => [item.user_id, item.vote])).toEqual([[carol.id, 'up']]);
  });

  it('the post bodies of the detail and the lists show the counts', async () => {
    const post = await published();
    await bob.api.post(votePath(post.slug), { form: { vote: 'down' } });
    await carol.api.post(votePath(post.slug), { form: { vote: 'up' } });
    await dave.api.post(votePath(post.slug), { form: { vote: 'up' } });
    const detail = await bob.api.get(`/posts/detail/${post.slug}`);
    expect(detail.body).toMatchObject({ slug: post.slug, rating_likes: 2, rating_dislikes: 1 });
    const listed = (await bob.api.get('/posts')).body.find((p: { slug: string }) => p.slug === post.slug);
    expect(listed).toMatchObject({ rating_likes: 2, rating_dislikes: 1 });
  });

  it('sort=votes orders by rating_likes, and a vote moves the post (ties: newest first)', async () => {
    const tag = unique('Votes');
    const older = await createPost(alice.api, { title: unique('Older '), description: 'x', publish: 'true', tags: tag });
    const newer = await createPost(alice.api, { title: unique('Newer '), description: 'x', publish: 'true', tags: tag });
    const tagSlug = (await alice.api.get('/tags', { query: { q: tag } })).body[0].slug;
    const order = async (path: string) => (await bob.api.get(path, { query: { sort: 'votes' } })).body.map((p: { slug: string }) => p.slug);
    expect(await order(`/posts/tagged/${tagSlug}`)).toEqual([newer.slug, older.slug]);
    await bob.api.post(votePath(older.slug), { form: { vote: 'up' } });
    expect(await order(`/posts/tagged/${tagSlug}`)).toEqual([older.slug, newer.slug]);
    const all = await order('/posts');
    expect(all.indexOf(older.slug)).toBeLessThan(all.indexOf(newer.slug));
    // A down vote does not count in rating_likes; switching the up vote down moves the post back.
    await carol.api.post(votePath(newer.slug), { form: { vote: 'down' } });
    await bob.api.post(votePath(older.slug), { form: { vote: 'down' } });
    expect(await order(`/posts/tagged/${tagSlug}`)).toEqual([newer.slug, older.slug]);
  });
});

describe('who may vote on what', () => {
  it("another user's draft and an unknown slug are 404, on every method", async () => {
    const draft = await createPost(alice.api, { title: unique('Draft '), description: 'x' });
    for (const slug of [draft.slug, 'no-such-post', unique('missing')]) {
      expect((await bob.api.get(votePath(slug))).body).toEqual({ detail: 'Not found.' });
      expect((await bob.api.get(votePath(slug))).status).toBe(404);
      const cast = await bob.api.post(votePath(slug), { form: { vote: 'up' } });
      expect([cast.status, cast.body]).toEqual([404, { detail: 'Not found.' }]);
      const removal = await bob.api.delete(votePath(slug));
      expect([removal.status, removal.body]).toEqual([404, { detail: 'Not found.' }]);
    }
  });

  it('the author cannot vote on their own post (published or draft): 403, nothing stored', async () => {
    const post = await published();
    const draft = await createPost(alice.api, { title: unique('Own draft '), description: 'x' });
    for (const slug of [post.slug, draft.slug]) {
      for (const vote of ['up', 'down']) {
        const answer = await alice.api.post(votePath(slug), { form: { vote } });
        expect([answer.status, answer.body]).toEqual([403, { detail: 'You cannot vote on your own post.' }]);
      }
      expect(await partition(keys.votesOf(await postIdOf(slug)))).toEqual([]);
      expect((await alice.api.get(votePath(slug))).body).toEqual({ vote: null, rating_likes: 0, rating_dislikes: 0 });
    }
  });

  it('vote missing or not up/down: 400 with the exact messages, nothing stored', async () => {
    const post = await published();
    const cases: [options: Parameters<typeof bob.api.post>[1], body: unknown][] = [
      [{ form: {} }, { vote: ['This field is required.'] }],
      [{ json: {} }, { vote: ['This field is required.'] }],
      [undefined, { vote: ['This field is required.'] }],
      [{ form: { vote: 'sideways' } }, { vote: ['"sideways" is not a valid choice.'] }],
      [{ form: { vote: 'UP' } }, { vote: ['"UP" is not a valid choice.'] }],
      [{ form: { vote: '' } }, { vote: ['"" is not a valid choice.'] }],
      [{ json: { vote: 1 } }, { vote: ['"1" is not a valid choice.'] }],
      [{ json: { vote: null } }, { vote: ['This field may not be null.'] }],
    ];
    for (const [options, body] of cases) {
      const answer = await bob.api.post(votePath(post.slug), options);
      expect([answer.status, answer.body], JSON.stringify(options)).toEqual([400, body]);
    }
    expect(await partition(keys.votesOf(await postIdOf(post.slug)))).toEqual([]);
  });

  it('without a token: 401', async () => {
    const post = await published();
    expect((await api.client().post(votePath(post.slug), { form: { vote: 'up' } })).status).toBe(401);
    expect((await api.client('f'.repeat(40)).get(votePath(post.slug))).body).toEqual({ detail: 'Invalid token.' });
  });

  it('a vote whose token is revoked before it commits fails with 401 and stores nothing', async () => {
    const post = await published();
    const login = await api.client().post('/login', { json: { username: dave.username, password: dave.password } });
    const token = String(login.body.token);
    const { caller, read } = await authenticate(token, postReads(post.slug));
    expect((await api.client(token).get('/logout')).status).toBe(200);
    await expect(castVote(caller, post.slug, read, { data: { vote: 'up' }, form: true })).rejects.toBeInstanceOf(AuthenticationFailed);
    expect(await partition(keys.votesOf(await postIdOf(post.slug)))).toEqual([]);
    expect((await bob.api.get(votePath(post.slug))).body).toMatchObject({ rating_likes: 0 });
  });
});

describe('a deleted post', () => {
  it('loses its votes once the stream consumer has run; a post of the same title starts at 0', async () => {
    const title = unique('Deleted ');
    const post = await published(title);
    const postId = await postIdOf(post.slug);
    await bob.api.post(votePath(post.slug), { form: { vote: 'up' } });
    await carol.api.post(votePath(post.slug), { form: { vote: 'down' } });
    expect(await partition(keys.votesOf(postId))).toHaveLength(2);
    expect((await alice.api.delete(`/posts/detail/${post.slug}`)).status).toBe(204);
    expect((await bob.api.get(votePath(post.slug))).status).toBe(404);
    await eventually(async () => (await partition(keys.votesOf(postId))).length === 0);
    const again = await published(title);
    expect(again.slug).toBe(post.slug);
    expect((await bob.api.get(votePath(again.slug))).body).toEqual({ vote: null, rating_likes: 0, rating_dislikes: 0 });
  });
});

describe('concurrency', () => {
  it('40 concurrent votes, switches and removals by four users on two posts lose no count', async () => {
    const posts = [await createPost(bob.api, { title: unique('Busy '), description: 'x', publish: 'true' }), await published(unique('Busy '))];
    const voters = [alice, carol, dave, bob];
    const requests: Promise<{ status: number; headers: Headers }>[] = [];
    for (let i = 0; i < 40; i++) {
      const voter = voters[i % voters.length]!;
      const post = posts[(i >> 2) % 2]!;
      const path = votePath(post.slug);
      requests.push(i % 5 === 4 ? voter.api.delete(path) : voter.api.post(path, { form: { vote: i % 3 === 0 ? 'down' : 'up' } }));
    }
    // 403: the author's own post; 503 (with Retry-After): contention outlasted the retry budget, nothing stored.
    for (const answer of await Promise.all(requests)) {
      expect([200, 403, 503]).toContain(answer.status);
      if (answer.status === 503) expect(answer.headers.get('retry-after')).toMatch(/^\d+$/);
    }
    for (const post of posts) {
      const votes = await partition(keys.votesOf(await postIdOf(post.slug)));
      const detail = (await carol.api.get(`/posts/detail/${post.slug}`)).body;
      expect(detail.rating_likes).toBe(votes.filter((v) => v.vote === 'up').length);
      expect(detail.rating_dislikes).toBe(votes.filter((v) => v.vote === 'down').length);
      expect(votes.every((v) => v.user_id !== (post.author === alice.username ? alice.id : bob.id))).toBe(true);
    }
  });
});
