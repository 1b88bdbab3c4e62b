import { DeleteCommand, GetCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { db } from '#lib/db/client.ts';
import { keys } from '#lib/db/keys.ts';
import { createPost, getWithBody, unique } from '../support/api.ts';
import { useApi } from '../support/fixture.ts';

// Summaries (docs/api.md, "Summaries"): every list of posts takes `view=summary` and then shows
// each post without its description, with its excerpt and reading time. What a page of them costs
// is test/api/performance/summaries.test.ts's.

const api = useApi({ users: ['alice', 'bob'] });
const { alice, bob } = api.users;

const SUMMARY_FIELDS = [
  'author',
  'title',
  'slug',
  'created',
  'modified',
  'publish',
  'is_featured',
  'tags',
  'keywords',
  'meta_description',
  'excerpt',
  'reading_time_minutes',
  'rating_likes',
  'rating_dislikes',
  'total_visitors',
  'total_favorites',
  // v1.3: appended after every v1.2 key.
  'total_comments',
  'comments_locked',
];
const POST_FIELDS = [
  'author',
  'title',
  'slug',
  'description',
  'created',
  'modified',
  'publish',
  'is_featured',
  'tags',
  'keywords',
  'meta_description',
  'rating_likes',
  'rating_dislikes',
  'total_visitors',
  'total_favorites',
  // v1.3: appended after every v1.2 key.
  'total_comments',
  'comments_locked',
];

const LONG = `# Heading\n\n${'Some **bold** words and a [link](https://example.com) here. '.repeat(40)}`;
let tag: string;
let tagSlug: string;
let post: { slug: string; title: string };
let draft: { slug: string };

beforeAll(async () => {
  tag = unique('Summ');
  post = await createPost(alice.api, { title: unique('Summary post '), description: LONG, tags: tag, publish: 'true' });
  await createPost(alice.api, {
    title: unique('Summary neighbour '),
    description: 'A *neighbour*.',
    tags: tag,
    publish: 'true',
    meta_description: 'The neighbour, in short.',
  });
  draft = await createPost(alice.api, { title: unique('Summary draft '), description: 'draft text', tags: tag });
  tagSlug = (await alice.api.get('/tags', { query: { q: tag } })).body[0].slug;
  expect((await bob.api.post(`/posts/detail/${post.slug}/favorite`)).status).toBe(200);
});

const expectedExcerpt = () => {
  const plain = `Heading ${'Some bold words and a link here. '.repeat(40)}`.trim();
  const head = [...plain].slice(0, 300).join('');
  return `${head.slice(0, head.lastIndexOf(' ')).trim()}…`;
};

describe('view=summary on every list of posts', () => {
  const lists = () =>
    [
      ['GET /posts', alice.api, '/posts'],
      ['GET /posts/tagged/{slug}', alice.api, `/posts/tagged/${tagSlug}`],
      ['GET /posts/author/{username}', alice.api, `/posts/author/${alice.username}`],
      ['GET /posts/me', alice.api, '/posts/me'],
      ['GET /users/detail/{username}/favorites', bob.api, `/users/detail/${bob.username}/favorites`],
    ] as const;

  it('answers each post without description, with excerpt and reading_time_minutes after meta_description', async () => {
    for (const [name, client, path] of lists()) {
      const response = await client.get(path, { query: { view: 'summary', page_size: '100' } });
      expect(response.status, name).toBe(200);
      const found = response.body.find((item: { slug: string }) => item.slug === post.slug);
      expect(found, name).toBeDefined();
      expect(Object.keys(found), name).toEqual(SUMMARY_FIELDS);
      expect(found.excerpt, name).toBe(expectedExcerpt());
      // The description as written: "Heading", then 11 words a sentence (the link's URL counts 3).
      expect(found.reading_time_minutes, name).toBe(Math.ceil((1 + 11 * 40) / 265));
      for (const item of response.body) expect(Object.keys(item), name).toEqual(SUMMARY_FIELDS);
    }
  });

  it('answers whole posts without view, as before', async () => {
    for (const [name, client, path] of lists()) {
      const response = await client.get(path);
      expect(response.status, name).toBe(200);
      for (const item of response.body) expect(Object.keys(item), name).toEqual(POST_FIELDS);
    }
  });

  it('takes view from the GET body as the other list parameters', async () => {
    const response = await getWithBody(alice.api, `/posts/tagged/${tagSlug}`, JSON.stringify({ view: 'summary' }), 'application/json');
    expect(response.status).toBe(200);
    expect(response.body.map((item: object) => 'excerpt' in item)).toEqual([true, true]);
  });

  it('refuses any other view with a 400 naming the value', async () => {
    for (const [name, client, path] of [...lists(), ['related', alice.api, `/posts/detail/${post.slug}/related`] as const]) {
      for (const value of ['full', 'SUMMARY', '']) {
        const response = await client.get(path, { query: { view: value } });
        expect(response.status, `${name} ${value}`).toBe(400);
        expect(response.body, name).toEqual({ view: [`"${value}" is not a valid choice.`] });
      }
    }
    const inBody = await getWithBody(alice.api, '/posts', 'view=compact', 'application/x-www-form-urlencoded');
    expect(inBody.status).toBe(400);
    expect(inBody.body).toEqual({ view: ['"compact" is not a valid choice.'] });
  });

  it('keeps view in the next page link', async () => {
    const response = await alice.api.get(`/posts/tagged/${tagSlug}`, { query: { view: 'summary', page_size: '1' } });
    expect(response.headers.get('link')).toMatch(/[?&]view=summary(&|>)/);
    const next = /<([^>]+)>/.exec(response.headers.get('link')!)![1]!;
    const page2 = await alice.api.get(next);
    expect(page2.status).toBe(200);
    expect(Object.keys(page2.body[0])).toEqual(SUMMARY_FIELDS);
  });

  it("lists the excerpt of the meta description when it has one; a draft in its author's own list", async () => {
    const tagged = await alice.api.get(`/posts/tagged/${tagSlug}`, { query: { view: 'summary' } });
    expect(tagged.body.find((item: { excerpt: string }) => item.excerpt === 'The neighbour, in short.')).toBeDefined();
    const drafts = await alice.api.get('/posts/me', { query: { view: 'summary', publish: 'false' } });
    expect(drafts.body.find((item: { slug: string }) => item.slug === draft.slug)).toMatchObject({
      excerpt: 'draft text',
      reading_time_minutes: 1,
      publish: false,
    });
  });

  it('related posts and a search answer summaries too', async () => {
    const related = await alice.api.get(`/posts/detail/${post.slug}/related`, { query: { view: 'summary' } });
    expect(related.status).toBe(200);
    expect(related.body).toHaveLength(1);
    expect(Object.keys(related.body[0])).toEqual(SUMMARY_FIELDS);
    expect(related.body[0].excerpt).toBe('The neighbour, in short.');
    const search = await alice.api.get('/posts', { query: { view: 'summary', q: post.title } });
    expect(search.status).toBe(200);
    expect(search.body.map((item: { slug: string }) => item.slug)).toEqual([post.slug]);
    expect(search.body[0].excerpt).toBe(expectedExcerpt());
  });
});

describe('a summary follows its post', () => {
  it('after an edit of the description, a meta description, a new title (a new slug) and a deletion', async () => {
    const own = await createPost(alice.api, { title: unique('Summary edited '), description: 'first *words*', publish: 'true' });
    const summaryOf = async (slug: string) =>
      (await alice.api.get('/posts/me', { query: { view: 'summary', page_size: '100' } })).body.find((item: { slug: string }) => item.slug === slug);
    expect((await summaryOf(own.slug)).excerpt).toBe('first words');

    expect((await alice.api.put(`/posts/detail/${own.slug}`, { json: { description: 'second `words`' } })).status).toBe(200);
    expect((await summaryOf(own.slug)).excerpt).toBe('second words');

    expect((await alice.api.put(`/posts/detail/${own.slug}`, { json: { meta_description: 'a *meta* one' } })).status).toBe(200);
    expect((await summaryOf(own.slug)).excerpt).toBe('a meta one');

    const renamed = (await alice.api.put(`/posts/detail/${own.slug}`, { json: { title: unique('Summary renamed ') } })).body;
    expect(renamed.slug).not.toBe(own.slug);
    expect(await summaryOf(own.slug)).toBeUndefined();
    expect((await summaryOf(renamed.slug)).excerpt).toBe('a meta one');
    const stored = async (slug: string) => (await db().send(new GetCommand({ TableName: api.table, Key: keys.postSummary(slug), ConsistentRead: true }))).Item;
    expect(await stored(own.slug)).toBeUndefined();
    expect(await stored(renamed.slug)).toMatchObject({ slug: renamed.slug, excerpt: 'a meta one' });
    expect((await stored(renamed.slug))!.description).toBeUndefined();

    expect((await alice.api.delete(`/posts/detail/${renamed.slug}`)).status).toBe(204);
    expect(await stored(renamed.slug)).toBeUndefined();
  });

  it('a rename that swaps all 20 tags for 20 other existing ones (the largest transaction) keeps its summary', async () => {
    const w = unique('Swap');
    const oldTags = Array.from({ length: 20 }, (_, i) => `${w}a${i}`);
    const newTags = Array.from({ length: 20 }, (_, i) => `${w}b${i}`);
    await createPost(bob.api, { title: unique('Swap holder '), description: 'x', tags: newTags.join(', '), publish: 'true' });
    const own = await createPost(alice.api, { title: unique('Swap post '), description: 'swapped *text*', tags: oldTags.join(', '), publish: 'true' });
    const renamed = await alice.api.put(`/posts/detail/${own.slug}`, { json: { title: unique('Swap renamed '), tags: newTags.join(', ') } });
    expect(renamed.status).toBe(200);
    const tagged = await bob.api.get(`/posts/author/${alice.username}`, { query: { view: 'summary', page_size: '100' } });
    expect(tagged.body.find((item: { slug: string }) => item.slug === renamed.body.slug)).toMatchObject({ excerpt: 'swapped text', tags: newTags });
  });

  it('a post stored before summaries (no summary item) is listed with the summary of its text', async () => {
    const old = await createPost(alice.api, { title: unique('Summary legacy '), description: '## An *old* post', publish: 'true' });
    await db().send(new DeleteCommand({ TableName: api.table, Key: keys.postSummary(old.slug) }));
    const listed = await alice.api.get(`/posts/author/${alice.username}`, { query: { view: 'summary', page_size: '100' } });
    const found = listed.body.find((item: { slug: string }) => item.slug === old.slug);
    expect(found).toMatchObject({ excerpt: 'An old post', reading_time_minutes: 1 });
    expect(Object.keys(found)).toEqual(SUMMARY_FIELDS);
  });
});
