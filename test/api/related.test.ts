import { beforeAll, describe, expect, it } from 'vitest';
import { createPost, unique, type TestUser } from '../support/api.ts';
import { useApi } from '../support/fixture.ts';

// Related posts (docs/api.md, "Related posts"): GET /posts/detail/{slug}/related answers the
// published posts that share the most tags with a post the caller can see, newest first among
// equal counts, at most 5, never the post itself nor a draft.

const NOT_FOUND = { detail: 'Not found.' };

interface World {
  post: { slug: string };
  draft: { slug: string };
  /** Slugs by name, created in this order (oldest first). */
  slugs: Record<string, string>;
}

/** alice's post tagged A, B and C, her draft tagged the same, and neighbours sharing 3, 2 or 1 of its tags. */
async function world(alice: TestUser): Promise<World> {
  const [a, b, c, d] = [unique('RelA'), unique('RelB'), unique('RelC'), unique('RelD')];
  const neighbours: [string, string[]][] = [
    ['oldOne', [a]],
    ['three', [a, b, c]],
    ['two', [a, b, d]],
    ['oneB', [b]],
    ['oneC', [c, d]],
    ['oneA', [a]],
    ['unrelated', [d]],
  ];
  const slugs: Record<string, string> = {};
  for (const [name, tags] of neighbours) {
    slugs[name] = (await createPost(alice.api, { title: unique(`Rel ${name} `), description: 'x', tags: tags.join(', '), publish: 'true' })).slug;
  }
  // A draft sharing every tag is never related; nor is the post itself.
  const draft = await createPost(alice.api, { title: unique('Rel draft '), description: 'x', tags: [a, b, c].join(', ') });
  const post = await createPost(alice.api, { title: unique('Rel post '), description: 'x', tags: [a, b, c].join(', '), publish: 'true' });
  return { post, draft, slugs };
}

const slugsOf = (body: { slug: string }[]) => body.map((post) => post.slug);

describe('related posts', () => {
  const api = useApi({ users: ['alice', 'bob'] });
  let w: World;
  beforeAll(async () => {
    w = await world(api.users.alice);
  });

  it('answers at most 5 published posts, most shared tags first, newest first among equal counts', async () => {
    const { bob } = api.users;
    const { slugs } = w;
    // bob's visit first: reading related posts counts none.
    const detail = (await bob.api.get(`/posts/detail/${slugs.three}`)).body;
    const response = await bob.api.get(`/posts/detail/${w.post.slug}/related`);
    expect(response.status).toBe(200);
    expect(slugsOf(response.body)).toEqual([slugs.three, slugs.two, slugs.oneA, slugs.oneC, slugs.oneB]);
    // Whole posts, as the post detail shows them; a bare array without a total.
    expect(response.body[0]).toEqual(detail);
    expect(response.headers.get('x-total-count')).toBeNull();
    expect(response.headers.get('link')).toBeNull();
  });

  it("never answers the post itself nor a draft: the author's draft has its own related posts", async () => {
    const { alice, bob } = api.users;
    const ofPost = slugsOf((await alice.api.get(`/posts/detail/${w.post.slug}/related`)).body);
    expect(ofPost).not.toContain(w.post.slug);
    expect(ofPost).not.toContain(w.draft.slug);
    const ofDraft = await alice.api.get(`/posts/detail/${w.draft.slug}/related`);
    expect(ofDraft.status).toBe(200);
    expect(slugsOf(ofDraft.body)).toEqual([w.post.slug, w.slugs.three, w.slugs.two, w.slugs.oneA, w.slugs.oneC]);
    // Another user cannot see the draft: 404, as its detail.
    expect([(await bob.api.get(`/posts/detail/${w.draft.slug}/related`)).status, (await bob.api.get(`/posts/detail/${w.draft.slug}/related`)).body]).toEqual([
      404,
      NOT_FOUND,
    ]);
  });

  it('answers [] for a post without tags or without neighbours', async () => {
    const { alice, bob } = api.users;
    const untagged = await createPost(alice.api, { title: unique('Rel untagged '), description: 'x', publish: 'true' });
    const lonely = await createPost(alice.api, { title: unique('Rel lonely '), description: 'x', tags: unique('Lonely'), publish: 'true' });
    for (const post of [untagged, lonely]) {
      const response = await bob.api.get(`/posts/detail/${post.slug}/related`);
      expect([response.status, response.body], post.slug).toEqual([200, []]);
    }
  });

  it('leaves out a post since unpublished or untagged', async () => {
    const { alice, bob } = api.users;
    const tag = unique('RelGone');
    const post = await createPost(alice.api, { title: unique('Rel base '), description: 'x', tags: tag, publish: 'true' });
    const kept = await createPost(alice.api, { title: unique('Rel kept '), description: 'x', tags: tag, publish: 'true' });
    const unpublished = await createPost(alice.api, { title: unique('Rel unpublished '), description: 'x', tags: tag, publish: 'true' });
    const untagged = await createPost(alice.api, { title: unique('Rel untagged '), description: 'x', tags: tag, publish: 'true' });
    expect((await alice.api.put(`/posts/detail/${unpublished.slug}`, { form: { publish: 'false' } })).status).toBe(200);
    expect((await alice.api.put(`/posts/detail/${untagged.slug}`, { form: { tags: unique('Elsewhere') } })).status).toBe(200);
    expect(slugsOf((await bob.api.get(`/posts/detail/${post.slug}/related`)).body)).toEqual([kept.slug]);
  });

  it('answers 404 for an unknown post and 401 without a token (public reads off)', async () => {
    const { bob } = api.users;
    for (const slug of ['no-such-post', 'x'.repeat(300)]) {
      const response = await bob.api.get(`/posts/detail/${slug}/related`);
      expect([response.status, response.body], slug).toEqual([404, NOT_FOUND]);
      expect(response.headers.get('cache-control')).toBe('no-store');
    }
    const anonymous = await api.client().get(`/posts/detail/${w.post.slug}/related`);
    expect([anonymous.status, anonymous.body]).toEqual([401, { detail: 'Authentication credentials were not provided.' }]);
  });

  it('carries an ETag, answers a matching If-None-Match 304, and HEAD without a body', async () => {
    const { bob } = api.users;
    const path = `/posts/detail/${w.post.slug}/related`;
    const first = await bob.api.get(path);
    const etag = first.headers.get('etag');
    expect(etag).toMatch(/^"/);
    expect(first.headers.get('cache-control')).toBe('private, no-cache');
    expect(first.headers.get('vary')).toBe('Authorization, Origin');
    const again = await bob.api.get(path, { headers: { 'If-None-Match': etag! } });
    expect([again.status, again.text, again.headers.get('etag')]).toEqual([304, '', etag]);
    const head = await bob.api.request('HEAD', path);
    expect([head.status, head.text, head.headers.get('etag')]).toEqual([200, '', etag]);
  });
});

describe('related posts with public reads on (PUBLIC_READS=true)', () => {
  const api = useApi({ users: ['alice', 'bob'], apiEnvironment: { PUBLIC_READS: 'true' } });

  it('answers an anonymous reader as a caller who owns nothing; a draft is 404', async () => {
    const w = await world(api.users.alice);
    const path = `/posts/detail/${w.post.slug}/related`;
    const anonymous = await api.client().get(path);
    expect(anonymous.status).toBe(200);
    expect(anonymous.body).toEqual((await api.users.bob.api.get(path)).body);
    expect(anonymous.body).toHaveLength(5);
    expect(anonymous.headers.get('cache-control')).toBe('public, max-age=0, s-maxage=10');
    const draft = await api.client().get(`/posts/detail/${w.draft.slug}/related`);
    expect([draft.status, draft.body]).toEqual([404, NOT_FOUND]);
    // A header is checked as always: never read as anonymous.
    const bad = await api.client().get(path, { headers: { Authorization: `Token ${'f'.repeat(40)}` } });
    expect([bad.status, bad.body]).toEqual([401, { detail: 'Invalid token.' }]);
  });
});
