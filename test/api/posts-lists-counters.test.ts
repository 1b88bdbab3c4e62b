import { describe, expect, it } from 'vitest';
import { createPost, type ApiResponse, type TestUser } from '../support/api.ts';
import { useApi } from '../support/fixture.ts';
import { expectNewestFirst, get, listHelpers, view, word, type Post } from '../support/post-lists.ts';

// The post lists' counters under concurrent requests (docs/api.md, endpoints 11 to 13): views,
// tag changes, publishes, creates and deletes at once leave every list and count equal to a
// recount. Its bursts conflict on the same counters, so it runs alone (vitest.config.ts); the
// lists' other behaviour is posts-lists-v11.test.ts.

const api = useApi({ users: ['alice', 'bob'] });
const { alice, bob } = api.users;
const { newTag, newUsers, walk } = listHelpers(api, alice);

describe('counters under concurrent requests', () => {
  it('20 simultaneous first views by 20 users: total_visitors is 20 in every list and sort the post is in', async () => {
    const [author] = await newUsers(1, 'popular');
    const tag = await newTag();
    const w = word('crowd');
    const post = await createPost(author!.api, { title: `Crowded ${w}`, description: 'x', tags: tag.title, publish: 'true' });
    const viewers = await newUsers(20, 'crowd');
    const views = await Promise.all(viewers.map((viewer) => view(viewer, post)));
    expect(views.map((response) => response.status)).toEqual(Array(20).fill(200));
    // The same users again, all at once: nothing changes.
    const again = await Promise.all(viewers.map((viewer) => view(viewer, post)));
    expect(again.map((response) => response.status)).toEqual(Array(20).fill(200));
    expect(again.map((response) => response.body.total_visitors)).toEqual(Array(20).fill(20));

    const where: [TestUser, string, Record<string, string>][] = [
      [bob, '/posts', { q: w }],
      [bob, `/posts/tagged/${tag.slug}`, {}],
      [bob, `/posts/author/${author!.username}`, {}],
      [author!, '/posts/me', {}],
    ];
    for (const [reader, path, query] of where) {
      for (const sort of ['newest', 'views', 'votes', 'active']) {
        const body = (await get(reader.api, path, { ...query, sort })).body;
        expect(
          body.map((listed) => [listed.slug, listed.total_visitors]),
          `${path} sort=${sort}`,
        ).toEqual([[post.slug, 20]]);
      }
    }
  });

  it('simultaneous tag changes, publishes, creates and deletes leave each list equal to a recount', async () => {
    const authors = await newUsers(3, 'busy');
    const tags = await Promise.all([newTag(), newTag(), newTag(), newTag()]);
    const titles = tags.map((tag) => tag.title);
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    const someTags = () => titles.filter(() => random() < 0.5).join(', ');

    // 15 posts to start with, five per author, some drafts.
    const start = await Promise.all(
      Array.from({ length: 15 }, (_, i) =>
        createPost(authors[i % 3]!.api, { title: `Busy ${i} ${word()}`, description: 'x', tags: someTags(), publish: i % 3 === 0 ? 'false' : 'true' }),
      ),
    );

    // At once: each post gets a tag change and a publish change (two concurrent updates of one
    // post), some are deleted, and new posts arrive.
    const work: Promise<ApiResponse>[] = [];
    const deletes: { slug: string; done: Promise<ApiResponse> }[] = [];
    const creates: Promise<ApiResponse<any>>[] = [];
    start.forEach((post, i) => {
      const author = authors[i % 3]!;
      work.push(author.api.put(`/posts/detail/${post.slug}`, { form: { tags: someTags() } }));
      work.push(author.api.put(`/posts/detail/${post.slug}`, { form: { publish: random() < 0.6 ? 'true' : 'false' } }));
      if (i % 5 === 4) deletes.push({ slug: post.slug, done: author.api.delete(`/posts/detail/${post.slug}`) });
    });
    for (let i = 0; i < 6; i++) {
      creates.push(
        authors[i % 3]!.api.post('/posts', { form: { title: `Late ${i} ${word()}`, description: 'x', tags: someTags(), publish: i % 2 ? 'true' : 'false' } }),
      );
    }
    const updated = await Promise.all(work);
    const deleted = await Promise.all(deletes.map(async ({ slug, done }) => ({ slug, response: await done })));
    const created = await Promise.all(creates);
    // An update of a post deleted meanwhile is a 404; a write that keeps losing races is a 503.
    for (const result of updated) expect([200, 404, 503], result.text).toContain(result.status);
    for (const { response } of deleted) expect([204, 503], response.text).toContain(response.status);
    for (const result of created) expect([201, 503], result.text).toContain(result.status);
    const busy = [...updated, ...created, ...deleted.map(({ response }) => response)].filter((result) => result.status === 503);
    expect(busy.length, 'writes refused as busy').toBeLessThan(5);

    // The recount: every post of these authors as it now is, read one by one.
    const gone = new Set(deleted.filter(({ response }) => response.status === 204).map(({ slug }) => slug));
    const candidates = [
      ...start.map((post) => post.slug).filter((slug) => !gone.has(slug)),
      ...created.filter((result) => result.status === 201).map((result) => result.body.slug as string),
    ];
    const posts: Post[] = [];
    const authorOf = new Map<string, string>(
      [...start, ...created.map((result) => result.body as Post)].filter(Boolean).map((post) => [post.slug, post.author]),
    );
    for (const slug of candidates) {
      const author = authors.find((user) => user.username === authorOf.get(slug))!;
      const detail = await author.api.get(`/posts/detail/${slug}`);
      expect(detail.status, slug).toBe(200);
      posts.push(detail.body);
    }
    for (const slug of gone) expect((await bob.api.get(`/posts/detail/${slug}`)).status).toBe(404);

    // Each author's own list holds exactly these posts, as they are (the author's read above was
    // their first visit).
    for (const author of authors) {
      const own = posts.filter((post) => post.author === author.username);
      expectNewestFirst((await walk(author.api, '/posts/me', { page_size: '4' }, 4)).posts, own, author.username);
      expectNewestFirst(
        (await walk(author.api, '/posts/me', { publish: 'false' })).posts,
        own.filter((post) => !post.publish),
        author.username,
      );
      expectNewestFirst(
        (await walk(bob.api, `/posts/author/${author.username}`)).posts,
        own.filter((post) => post.publish),
        author.username,
      );
      expect((await bob.api.get(`/users/detail/${author.username}`)).body.total_posts).toBe(own.filter((post) => post.publish).length);
    }
    for (const tag of tags) {
      const expected = posts.filter((post) => post.publish && post.tags.includes(tag.title));
      expectNewestFirst((await walk(bob.api, `/posts/tagged/${tag.slug}`, { page_size: '3' }, 3)).posts, expected, tag.title);
      expect((await bob.api.get(`/tags/detail/${tag.slug}`)).body.total_posts, tag.title).toBe(expected.length);
    }
  });
});
