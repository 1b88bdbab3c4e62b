import { describe, expect, it } from 'vitest';
import { authenticate } from '#lib/auth/authenticate.ts';
import { keys } from '#lib/db/keys.ts';
import { AuthenticationFailed } from '#lib/errors.ts';
import { createPost as createPostOf, createReads, parseCreate } from '#lib/posts/create.ts';
import { deletePost } from '#lib/posts/delete.ts';
import { postReads, viewPost } from '#lib/posts/detail.ts';
import { parseUpdate, updatePost, updateReads } from '#lib/posts/update.ts';
import { createTag, createTagReads } from '#lib/tags/create.ts';
import { parseTagInput } from '#lib/tags/input.ts';
import { profileReads } from '#lib/users/detail.ts';
import { updateProfile } from '#lib/users/update.ts';
import { createPost, unique } from '../support/api.ts';
import { useApi } from '../support/fixture.ts';
import { partition, postIdOf } from '../support/reactions.ts';

// docs/api.md, Authentication: "A write commits only while the token that asked for it is still
// valid: a logout, password change or deactivation that commits first makes the write fail with
// 401, and nothing of it is stored." Each write below reads with its token as its handler does,
// then the session logs out, then the write is attempted: the token's ConditionCheck in the
// write's own transaction refuses it (no extra round trip: test/api/performance/calls.test.ts).

const api = useApi({ users: ['alice', 'bob'] });
const { alice, bob } = api.users;

/** A new session of `user`, authenticated with `reads` (the handler's first round trip), then logged out. */
async function revokedSession(user: { username: string; password: string }, reads: ReturnType<typeof postReads>) {
  const login = await api.client().post('/login', { json: { username: user.username, password: user.password } });
  const token = String(login.body.token);
  const authenticated = await authenticate(token, reads);
  expect((await api.client(token).get('/logout')).status).toBe(200);
  return authenticated;
}

const form = (data: Record<string, string>) => ({ data, form: true });

describe('a write whose token is revoked before it commits: 401, nothing stored', () => {
  it('POST /posts', async () => {
    const title = unique('Never stored ');
    const input = parseCreate(form({ title, description: 'x', tags: unique('Never tag '), publish: 'true' }));
    const { caller, read } = await revokedSession(alice, createReads(input));
    await expect(createPostOf(caller, input, read)).rejects.toBeInstanceOf(AuthenticationFailed);
    const slug = title.toLowerCase().replace(/[^a-z0-9]+/g, '-');
    expect(await partition(keys.post(slug).PK)).toEqual([]);
    expect((await alice.api.get('/posts/me', { query: { q: title } })).body).toEqual([]);
  });

  it('PUT /posts/detail/{slug}', async () => {
    const post = await createPost(alice.api, { title: unique('Kept '), description: 'before', publish: 'true' });
    const update = parseUpdate(form({ description: 'after' }));
    const { caller, read } = await revokedSession(alice, updateReads(post.slug, update));
    await expect(updatePost(caller, post.slug, update, read)).rejects.toBeInstanceOf(AuthenticationFailed);
    expect((await alice.api.get(`/posts/detail/${post.slug}`)).body.description).toBe('before');
  });

  it('DELETE /posts/detail/{slug}', async () => {
    const post = await createPost(alice.api, { title: unique('Not deleted '), description: 'x', publish: 'true' });
    const { caller, read } = await revokedSession(alice, postReads(post.slug));
    await expect(deletePost(caller, post.slug, read)).rejects.toBeInstanceOf(AuthenticationFailed);
    expect((await bob.api.get(`/posts/detail/${post.slug}`)).status).toBe(200);
  });

  it('GET /posts/detail/{slug}, a first visit', async () => {
    const post = await createPost(alice.api, { title: unique('Unvisited '), description: 'x', publish: 'true' });
    const { caller, read } = await revokedSession(bob, postReads(post.slug));
    await expect(viewPost(caller, post.slug, read)).rejects.toBeInstanceOf(AuthenticationFailed);
    expect(await partition(keys.visitsOf(await postIdOf(post.slug)))).toEqual([]);
    const stats = (await partition(keys.postStats(post.slug).PK)).find((item) => item.SK === keys.postStats(post.slug).SK);
    expect(stats?.total_visitors ?? 0).toBe(0);
  });

  it('POST /tags', async () => {
    const title = unique('Never tag ');
    const input = parseTagInput(form({ title }));
    const { caller, read } = await revokedSession(alice, createTagReads(input));
    await expect(createTag(caller, input, read)).rejects.toBeInstanceOf(AuthenticationFailed);
    expect(await partition(keys.tagTitle(title).PK)).toEqual([]);
  });

  it('PUT /users/detail/{username}', async () => {
    const { caller, read } = await revokedSession(bob, profileReads(bob.username));
    await expect(updateProfile(caller, bob.username, read, form({ location: 'Never here' }))).rejects.toBeInstanceOf(AuthenticationFailed);
    expect((await bob.api.get(`/users/detail/${bob.username}`)).body.location).not.toBe('Never here');
  });
});
