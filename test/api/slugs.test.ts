import { describe, expect, it } from 'vitest';
import { unique, type ApiResponse } from '../support/api.ts';
import { useApi } from '../support/fixture.ts';

// docs/api.md, Slugs and Tags on posts: NFKD titles, `untitled` for letters that spell nothing in
// ASCII, tags without letters dropped, and creates of one title at once that all succeed.

const api = useApi({ users: ['alice', 'bob', 'carol', 'dave'] });
const { alice, bob, carol, dave } = api.users;
const writers = [alice, bob, carol, dave];

const slugsOf = (responses: ApiResponse[]) => responses.map((response) => String((response.body as { slug?: unknown }).slug));

describe('slugs from titles', () => {
  it.each([
    ['ﬁle sharing', 'file-sharing'],
    ['ＡＢＣ test', 'abc-test'],
    ['Café crème', 'cafe-creme'],
    ['Привет мир', 'privet-mir'],
  ])('makes the slug of %j from its NFKD form: %s', async (title, slug) => {
    const marker = unique('').toLowerCase();
    const response = await alice.api.post('/posts', { json: { title: `${title} ${marker}`, description: 'd' } });
    expect(response.status, response.text).toBe(201);
    expect(response.body.slug).toBe(`${slug}-${marker}`);
    expect((await alice.api.get(`/posts/detail/${slug}-${marker}`)).body.title).toBe(`${title} ${marker}`);
  });

  it('gives a title of letters the slug library cannot spell the slug "untitled", then "untitled-N"', async () => {
    const first = await alice.api.post('/posts', { json: { title: '日本語', description: 'd', publish: true } });
    const second = await bob.api.post('/posts', { form: { title: '한국어 제목', description: 'd' } });
    expect(first.status, first.text).toBe(201);
    expect(second.status, second.text).toBe(201);
    expect(first.body.slug).toMatch(/^untitled(-\d+)?$/);
    expect(second.body.slug).toMatch(/^untitled(-\d+)?$/);
    expect(second.body.slug).not.toBe(first.body.slug);
    const detail = await alice.api.get(`/posts/detail/${first.body.slug}`);
    expect(detail.status).toBe(200);
    expect(detail.body.title).toBe('日本語');
  });

  it('still refuses a title with no letter or digit at all', async () => {
    const response = await alice.api.post('/posts', { form: { title: '!!! 🎉 ???', description: 'd' } });
    expect(response.status).toBe(400);
    expect(Object.keys(response.body)).toEqual(['title']);
  });

  it('refuses a title of symbols the slug library would spell as words ($ & % ♥), on create and on update, for posts and tags', async () => {
    const refused = { title: ['The title must contain at least one letter or digit to form a slug.'] };
    for (const title of ['$ & % ♥', '€ + ∞']) {
      const created = await alice.api.post('/posts', { json: { title, description: 'd' } });
      expect([created.status, created.body]).toEqual([400, refused]);
      const tag = await alice.api.post('/tags', { form: { title } });
      expect([tag.status, tag.body]).toEqual([400, refused]);
    }
    const post = await alice.api.post('/posts', { json: { title: unique('Symbols '), description: 'd' } });
    const updated = await alice.api.put(`/posts/detail/${post.body.slug}`, { json: { title: '$ & % ♥' } });
    expect([updated.status, updated.body]).toEqual([400, refused]);
    expect((await alice.api.get(`/posts/detail/${post.body.slug}`)).body.title).toBe(post.body.title);
    expect((await alice.api.get('/posts/detail/dollar-and-percent-love')).status).toBe(404);
    // A tag of symbols in a post's tags is dropped like an empty part.
    const tagged = await alice.api.put(`/posts/detail/${post.body.slug}`, { form: { tags: 'Money, $ & %' } });
    expect(tagged.status, tagged.text).toBe(200);
    expect(tagged.body.tags).toEqual(['Money']);
  });

  it('drops a tag title with no letter or digit like an empty part', async () => {
    const python = unique('Python');
    const response = await alice.api.post('/posts', { form: { title: unique('Tagged '), description: 'd', tags: `${python}, !!!, , 🎉` } });
    expect(response.status, response.text).toBe(201);
    expect(response.body.tags).toEqual([python]);
  });

  it('gives a tag of CJK letters the tag slug "untitled"-something', async () => {
    const title = `標籤${unique('')
      .slice(0, 4)
      .replace(/[0-9a-f]/g, (c) => '零一二三四五六七八九甲乙丙丁戊己'[parseInt(c, 16)]!)}`;
    const response = await alice.api.post('/tags', { form: { title } });
    expect(response.status, response.text).toBe(201);
    expect(response.body.slug).toMatch(/^untitled(-\d+)?$/);
  });
});

describe('creates of one title one after another', () => {
  it('take the first free slug: base, base-1, base-2, and a freed slug again', async () => {
    const title = unique('Again ');
    const base = title.toLowerCase().replace(/ /g, '-');
    const create = async () => {
      const response = await alice.api.post('/posts', { form: { title, description: 'd', publish: 'true' } });
      expect(response.status, response.text).toBe(201);
      return String(response.body.slug);
    };
    expect([await create(), await create(), await create()]).toEqual([base, `${base}-1`, `${base}-2`]);
    expect((await alice.api.delete(`/posts/detail/${base}-1`)).status).toBe(204);
    expect(await create()).toBe(`${base}-1`);
    expect((await alice.api.delete(`/posts/detail/${base}`)).status).toBe(204);
    expect(await create()).toBe(base);
    expect(await create()).toBe(`${base}-3`);
    // A rename away frees the slug too.
    const renamed = await alice.api.put(`/posts/detail/${base}-2`, { form: { title: unique('Elsewhere ') } });
    expect(renamed.status).toBe(200);
    expect(await create()).toBe(`${base}-2`);
  });
});

describe('creates of one title at once', () => {
  it('answers 201 to 40 parallel creates of one title, each under its own slug', async () => {
    const title = unique('Same Title ');
    const base = title.toLowerCase().replace(/ /g, '-');
    const totalPosts = async () =>
      Promise.all(writers.map(async (writer) => Number((await alice.api.get(`/users/detail/${writer.username}`)).body.total_posts)));
    const before = await totalPosts();
    const responses = await Promise.all(
      Array.from({ length: 40 }, (_, n) => writers[n % writers.length]!.api.post('/posts', { form: { title, description: `copy ${n}`, publish: 'true' } })),
    );
    expect(responses.map((response) => response.status)).toEqual(Array(40).fill(201));
    const slugs = slugsOf(responses);
    expect(new Set(slugs).size).toBe(40);
    for (const slug of slugs) expect(slug).toMatch(new RegExp(`^${base}(-\\d+)?$`));
    expect(slugs).toContain(base);
    // Each slug answers the post that was created under it.
    const details = await Promise.all(slugs.map((slug) => alice.api.get(`/posts/detail/${slug}`)));
    expect(details.map((detail) => detail.status)).toEqual(Array(40).fill(200));
    expect(new Set(details.map((detail) => detail.body.description)).size).toBe(40);
    // The authors' counters counted every one (ten each).
    const after = await totalPosts();
    expect(after.map((total, n) => total - before[n]!)).toEqual([10, 10, 10, 10]);
  });

  it('answers 201 to 40 parallel creates of one title by one author', async () => {
    const title = unique('One Author ');
    const responses = await Promise.all(
      Array.from({ length: 40 }, (_, n) => dave.api.post('/posts', { json: { title, description: `copy ${n}`, publish: true } })),
    );
    expect(responses.map((response) => response.status)).toEqual(Array(40).fill(201));
    expect(new Set(slugsOf(responses)).size).toBe(40);
  });

  it('answers 200 to 20 parallel renames to one title, each under its own slug, the old slugs gone', async () => {
    const posts = await Promise.all(
      Array.from({ length: 20 }, async (_, n) => {
        const response = await writers[n % writers.length]!.api.post('/posts', {
          form: { title: unique('Before '), description: `renamed ${n}`, publish: 'true' },
        });
        expect(response.status, response.text).toBe(201);
        return { writer: writers[n % writers.length]!, slug: String(response.body.slug) };
      }),
    );
    const title = unique('Renamed Alike ');
    const base = title.toLowerCase().replace(/ /g, '-');
    const responses = await Promise.all(posts.map(({ writer, slug }) => writer.api.put(`/posts/detail/${slug}`, { form: { title } })));
    expect(responses.map((response) => response.status)).toEqual(Array(20).fill(200));
    const slugs = slugsOf(responses);
    expect(new Set(slugs).size).toBe(20);
    for (const slug of slugs) expect(slug).toMatch(new RegExp(`^${base}(-\\d+)?$`));
    const old = await Promise.all(posts.map(({ slug }) => alice.api.get(`/posts/detail/${slug}`)));
    expect(old.map((response) => response.status)).toEqual(Array(20).fill(404));
    const details = await Promise.all(slugs.map((slug) => alice.api.get(`/posts/detail/${slug}`)));
    expect(new Set(details.map((detail) => detail.body.description)).size).toBe(20);
  });

  it('answers 201 to parallel tag creates whose titles share a slug base, each under its own slug', async () => {
    const stem = unique('Lang');
    const titles = ['', '!', '?', '.', '+', '++', '#', '*', ' !', ' ?', ' +', ' #'].map((mark) => `${stem}${mark}`);
    const responses = await Promise.all(titles.map((title, n) => writers[n % writers.length]!.api.post('/tags', { form: { title } })));
    expect(responses.map((response) => response.status)).toEqual(Array(titles.length).fill(201));
    expect(new Set(slugsOf(responses)).size).toBe(titles.length);
    for (const [n, response] of responses.entries()) expect(response.body.title).toBe(titles[n]);
  });
});

describe('a slug with a slash', () => {
  it('is no post: 404 {"detail": "Not found."} on every post route, for the author and anyone else, and nothing changes', async () => {
    const post = (await alice.api.post('/posts', { form: { title: unique('Slashed '), description: 'd', publish: 'true' } })).body as {
      slug: string;
      title: string;
    };
    const notFound = [404, { detail: 'Not found.' }];
    for (const client of [alice.api, bob.api]) {
      for (const slug of [`${post.slug}%2F`, `${post.slug}%2f`, `a%2F${post.slug}`, `${post.slug}%2Fvote`, `${post.slug}%2Ffavorite`]) {
        const detail = `/posts/detail/${slug}`;
        const answers = [
          await client.get(detail),
          await client.put(detail, { form: { title: unique('Hijacked ') } }),
          await client.delete(detail),
          ...(await Promise.all([
            client.get(`${detail}/vote`),
            client.post(`${detail}/vote`, { form: { vote: 'up' } }),
            client.delete(`${detail}/vote`),
            client.get(`${detail}/favorite`),
            client.post(`${detail}/favorite`),
            client.delete(`${detail}/favorite`),
          ])),
        ];
        for (const answer of answers) expect([answer.status, answer.body], `${slug}: ${answer.text}`).toEqual(notFound);
      }
    }
    const after = await bob.api.get(`/posts/detail/${post.slug}`);
    expect(after.status).toBe(200);
    expect(after.body).toMatchObject({ title: post.title, rating_likes: 0, total_favorites: 0 });
    // A literal trailing slash is still the post's own path.
    expect((await bob.api.get(`/posts/detail/${post.slug}/`)).body.title).toBe(post.title);
  });
});
