import { describe, expect, it } from 'vitest';
import { createPost, unique, type ApiClient } from '../support/api.ts';
import { POST_FIELDS } from '../support/contract.ts';
import { useApi } from '../support/fixture.ts';

// POST /posts, GET/PUT/DELETE /posts/detail/{slug} and the counters they keep, over HTTP against
// DynamoDB Local. The table is shared by every test of this file, so each test uses its own words
// in titles and tag names.

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}\+00:00$/;
const NOT_FOUND = { detail: 'Not found.' };
const NOT_OWNER = { detail: 'You are not owner of this post!' };

const api = useApi({ users: ['alice', 'bob'] });
const { alice, bob } = api.users;

/** A lowercase word no other test uses (letters and digits: it is its own slug). */
const word = (prefix = 'w') => unique(prefix);

const create = createPost;

/** The post's fields without the visit counter (reading a post as a new visitor changes it). */
function withoutVisits(post: any) {
  const copy = { ...post };
  delete copy.total_visitors;
  return copy;
}

/** The published post with `slug` as the list shows it (reading the list records no visit). */
async function listed(client: ApiClient, slug: string, q: string) {
  const response = await client.get('/posts', { query: { q } });
  expect(response.status).toBe(200);
  return response.body.find((post: any) => post.slug === slug);
}

async function userTotalPosts(username: string): Promise<number> {
  const response = await alice.api.get(`/users/detail/${username}`);
  expect(response.status).toBe(200);
  return response.body.total_posts;
}

async function tagTotalPosts(slug: string): Promise<number> {
  const response = await alice.api.get(`/tags/detail/${slug}`);
  expect(response.status, response.text).toBe(200);
  return response.body.total_posts;
}

describe('POST /posts', () => {
  it('creates a post from a form body: 201, every field in the contract order', async () => {
    const w = word();
    const response = await alice.api.post('/posts', {
      form: {
        title: `First ${w}`,
        description: '# Heading\n\nSome *markdown*.',
        keywords: 'one, two',
        meta_description: 'A short summary',
        publish: 'true',
      },
    });
    expect(response.status).toBe(201);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(Object.keys(response.body)).toEqual(POST_FIELDS);
    expect(response.body).toMatchObject({
      author: alice.username,
      title: `First ${w}`,
      slug: `first-${w}`,
      description: '# Heading\n\nSome *markdown*.',
      publish: true,
      is_featured: false,
      tags: [],
      keywords: 'one, two',
      meta_description: 'A short summary',
      rating_likes: 0,
      rating_dislikes: 0,
      total_visitors: 0,
      total_favorites: 0,
    });
    expect(response.body.created).toMatch(TIMESTAMP);
    expect(response.body.modified).toMatch(TIMESTAMP);
    expect(response.body.modified).toBe(response.body.created);

    // It is stored: another user reads the same post.
    const read = await bob.api.get(`/posts/detail/first-${w}`);
    expect(read.status).toBe(200);
    expect(withoutVisits(read.body)).toEqual(withoutVisits(response.body));
  });

  it('creates a post from a JSON body', async () => {
    const w = word();
    const response = await alice.api.post('/posts', {
      json: { title: `Json ${w}`, description: 'body', tags: `${w}x, ${w}y`, publish: true, keywords: 'k' },
    });
    expect(response.status).toBe(201);
    expect(Object.keys(response.body)).toEqual(POST_FIELDS);
    expect(response.body).toMatchObject({
      author: alice.username,
      title: `Json ${w}`,
      slug: `json-${w}`,
      publish: true,
      tags: [`${w}x`, `${w}y`],
      keywords: 'k',
      meta_description: null,
    });
  });

  it('ignores slug, author, is_featured and counters sent in the body', async () => {
    const w = word();
    const response = await alice.api.post('/posts', {
      form: {
        title: `Ignored ${w}`,
        description: 'd',
        publish: 'true',
        slug: `custom-${w}`,
        author: bob.username,
        is_featured: 'true',
        rating_likes: '5',
        rating_dislikes: '6',
        total_visitors: '7',
        total_favorites: '8',
      },
    });
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({
      author: alice.username,
      slug: `ignored-${w}`,
      is_featured: false,
      rating_likes: 0,
      rating_dislikes: 0,
      total_visitors: 0,
      total_favorites: 0,
    });
    expect((await bob.api.get(`/posts/detail/custom-${w}`)).status).toBe(404);
    const stored = await listed(bob.api, `ignored-${w}`, w);
    expect(stored).toMatchObject({ author: alice.username, is_featured: false, rating_likes: 0, total_favorites: 0 });

    const json = await alice.api.post('/posts', {
      json: { title: `Ignored json ${w}`, description: 'd', is_featured: true, author: bob.username, total_visitors: 3 },
    });
    expect(json.status).toBe(201);
    expect(json.body).toMatchObject({ author: alice.username, is_featured: false, total_visitors: 0 });
  });

  it('defaults: publish false (a draft), keywords and meta_description null, no tags', async () => {
    const w = word();
    const post = await create(alice.api, { title: `Defaults ${w}`, description: 'd' });
    expect(post.publish).toBe(false);
    expect(post.keywords).toBeNull();
    expect(post.meta_description).toBeNull();
    expect(post.tags).toEqual([]);
  });

  it('accepts the boolean spellings for publish', async () => {
    const cases: [string, boolean][] = [
      ['true', true],
      ['false', false],
      ['1', true],
      ['0', false],
      ['on', true],
      ['off', false],
      ['yes', true],
      ['no', false],
    ];
    const w = word();
    const results = await Promise.all(
      cases.map(([value], i) => alice.api.post('/posts', { form: { title: `Bool ${w} ${i}`, description: 'd', publish: value } })),
    );
    results.forEach((response, i) => {
      expect(response.status, `publish=${cases[i]![0]}`).toBe(201);
      expect(response.body.publish, `publish=${cases[i]![0]}`).toBe(cases[i]![1]);
    });
  });

  it('rejects publish values that are not booleans', async () => {
    const w = word();
    const response = await alice.api.post('/posts', { form: { title: `Maybe ${w}`, description: 'd', publish: 'maybe' } });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ publish: ['Must be a valid boolean.'] });
    expect((await alice.api.get(`/posts/detail/maybe-${w}`)).status).toBe(404);
  });

  describe('tags', () => {
    it('trims, drops empty parts and removes case-insensitive repeats', async () => {
      const w = word();
      const post = await create(alice.api, { title: `Tags ${w}`, description: 'd', tags: `${w}a, ${w}B ,,${w}A` });
      expect(post.tags).toEqual([`${w}a`, `${w}B`]);
    });

    it('creates unknown tags, visible at /tags/detail/{slug}', async () => {
      const w = word();
      expect((await alice.api.get(`/tags/detail/${w}-new-tag`)).status).toBe(404);
      const post = await create(alice.api, { title: `New tag ${w}`, description: 'd', tags: `${w} New Tag`, publish: 'true' });
      expect(post.tags).toEqual([`${w} New Tag`]);
      const tag = await alice.api.get(`/tags/detail/${w}-new-tag`);
      expect(tag.status).toBe(200);
      expect(tag.body).toEqual({ title: `${w} New Tag`, slug: `${w}-new-tag`, total_posts: 1 });
    });

    it('matches existing tags case-insensitively and keeps the existing title', async () => {
      const w = word();
      const tag = await alice.api.post('/tags', { form: { title: `${w} JavaScript` } });
      expect(tag.status).toBe(201);
      const post = await create(bob.api, { title: `Existing tag ${w}`, description: 'd', tags: `${w.toUpperCase()} JAVASCRIPT`, publish: 'true' });
      expect(post.tags).toEqual([`${w} JavaScript`]);
      // No second tag was created for the other spelling.
      expect((await alice.api.get(`/tags/detail/${w}-javascript-1`)).status).toBe(404);
      expect(await tagTotalPosts(`${w}-javascript`)).toBe(1);

      const again = await create(alice.api, { title: `Existing tag again ${w}`, description: 'd', tags: `${w} javascript`, publish: 'true' });
      expect(again.tags).toEqual([`${w} JavaScript`]);
      expect(await tagTotalPosts(`${w}-javascript`)).toBe(2);
    });
  });

  describe('validation', () => {
    it('requires title and description', async () => {
      const response = await alice.api.post('/posts', { form: { publish: 'true' } });
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ title: ['This field is required.'], description: ['This field is required.'] });

      const json = await alice.api.post('/posts', { json: {} });
      expect(json.status).toBe(400);
      expect(json.body).toEqual({ title: ['This field is required.'], description: ['This field is required.'] });
    });

    it('reports a missing field next to a present one', async () => {
      const w = word();
      const response = await alice.api.post('/posts', { form: { title: `Only title ${w}` } });
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ description: ['This field is required.'] });
      expect((await alice.api.get(`/posts/detail/only-title-${w}`)).status).toBe(404);
    });

    it('rejects blank title and description', async () => {
      const response = await alice.api.post('/posts', { form: { title: '', description: '   ' } });
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ title: ['This field may not be blank.'], description: ['This field may not be blank.'] });
    });

    it('limits the title to 200 characters', async () => {
      const w = word();
      const tooLong = await alice.api.post('/posts', { form: { title: `${w} ${'x'.repeat(200)}`.slice(0, 201), description: 'd' } });
      expect(tooLong.status).toBe(400);
      expect(tooLong.body).toEqual({ title: ['Ensure this field has no more than 200 characters.'] });

      const longest = `${w} ${'y'.repeat(200)}`.slice(0, 200);
      const ok = await alice.api.post('/posts', { form: { title: longest, description: 'd' } });
      expect(ok.status).toBe(201);
      expect(ok.body.title).toBe(longest);
    });

    it('rejects a title that yields no slug', async () => {
      const response = await alice.api.post('/posts', { form: { title: '!!!', description: 'd' } });
      expect(response.status).toBe(400);
      expect(Object.keys(response.body)).toEqual(['title']);
      expect(response.body.title).toHaveLength(1);
      expect(typeof response.body.title[0]).toBe('string');
    });

    it("reports a title without a slug together with the other fields' errors", async () => {
      const response = await alice.api.post('/posts', { form: { title: '???', description: 'd', publish: 'maybe' } });
      expect(response.status).toBe(400);
      expect(Object.keys(response.body).sort()).toEqual(['publish', 'title']);
      expect(response.body.publish).toEqual(['Must be a valid boolean.']);
    });

    it('refuses a description over 100,000 characters or over 300,000 bytes in UTF-8, storing nothing', async () => {
      const w = word();
      const target = await create(alice.api, { title: `${w} target`, description: 'd' });
      // 75,001 characters, each emoji one code point: within the character limit, one byte over.
      const oneByteOver = `${'\u{1F600}'.repeat(75_000)}a`;
      const oneCharOver = 'a'.repeat(100_001);
      const bytesMessage = { description: ['Ensure this field has no more than 300000 bytes in UTF-8.'] };
      const charsMessage = { description: ['Ensure this field has no more than 100000 characters.'] };
      for (const [description, message] of [
        [oneByteOver, bytesMessage],
        [oneCharOver, charsMessage],
      ] as const) {
        const created = await alice.api.post('/posts', { json: { title: `${w} heavy`, description, publish: true } });
        expect(created.status).toBe(400);
        expect(created.body).toEqual(message);
        const updated = await alice.api.put(`/posts/detail/${target.slug}`, { json: { description } });
        expect(updated.status).toBe(400);
        expect(updated.body).toEqual(message);
      }
      expect((await alice.api.get(`/posts/detail/${target.slug}`)).body.description).toBe('d');
      expect((await alice.api.get(`/posts/detail/${w}-heavy`)).status).toBe(404);
    });

    it('stores a post with every field at its maximum, the description at 100,000 characters and 300,000 bytes', async () => {
      const w = word();
      const emoji = '\u{1F600}';
      // 40,000 × 4 + 30,000 × 3 + 20,000 × 2 + 10,000 × 1 bytes = 300,000 bytes in 100,000 characters.
      const description = `${w} ${'日'.repeat(30_000)}${emoji.repeat(40_000)}${'é'.repeat(20_000)}${'a'.repeat(10_000 - w.length - 1)}`;
      expect([...description]).toHaveLength(100_000);
      expect(Buffer.byteLength(description, 'utf8')).toBe(300_000);
      const fields = {
        title: `${w} ${emoji.repeat(200 - w.length - 1)}`,
        description,
        keywords: emoji.repeat(500),
        meta_description: emoji.repeat(1_000),
      };
      const tags = Array.from({ length: 20 }, (_, i) => `${w}${i} ${emoji.repeat(100 - `${w}${i} `.length)}`);
      for (const tag of tags) expect([...tag]).toHaveLength(100);
      expect([...fields.title]).toHaveLength(200);

      const post = await alice.api.post('/posts', { json: { ...fields, tags: tags.join(','), publish: true } });
      expect(post.status, post.text.slice(0, 300)).toBe(201);
      expect(post.body).toMatchObject(fields);
      const read = await alice.api.get(`/posts/detail/${post.body.slug}`);
      expect(read.status, read.text.slice(0, 300)).toBe(200);
      expect(read.body).toMatchObject(fields);
      expect([...read.body.tags].sort()).toEqual([...tags].sort());
    });
  });

  describe('slugs', () => {
    it('slugifies the title: lowercase words joined by hyphens', async () => {
      const post = await create(alice.api, { title: 'Hello, World!', description: 'd', publish: 'true' });
      expect(post.slug).toBe('hello-world');
    });

    it('appends -1, -2 to a taken slug and reuses a freed suffix', async () => {
      const w = word();
      const title = `Same ${w}`;
      const first = await create(alice.api, { title, description: 'd', publish: 'true' });
      const second = await create(bob.api, { title, description: 'd', publish: 'true' });
      const third = await create(alice.api, { title: `SAME  ${w}!`, description: 'd', publish: 'true' });
      expect([first.slug, second.slug, third.slug]).toEqual([`same-${w}`, `same-${w}-1`, `same-${w}-2`]);

      // Each slug names its own post.
      expect((await alice.api.get(`/posts/detail/same-${w}-1`)).body.author).toBe(bob.username);

      expect((await bob.api.delete(`/posts/detail/same-${w}-1`)).status).toBe(204);
      const fourth = await create(alice.api, { title, description: 'd' });
      expect(fourth.slug).toBe(`same-${w}-1`);
      const fifth = await create(alice.api, { title, description: 'd' });
      expect(fifth.slug).toBe(`same-${w}-3`);
    });
  });
});

describe('GET /posts/detail/{slug}', () => {
  it('shows a published post to everyone', async () => {
    const w = word();
    const post = await create(alice.api, { title: `Public ${w}`, description: 'd', publish: 'true' });
    const response = await bob.api.get(`/posts/detail/${post.slug}`);
    expect(response.status).toBe(200);
    expect(Object.keys(response.body)).toEqual(POST_FIELDS);
    expect(withoutVisits(response.body)).toEqual(withoutVisits(post));
  });

  it('shows a draft only to its author', async () => {
    const w = word();
    const draft = await create(alice.api, { title: `Draft ${w}`, description: 'd' });
    const own = await alice.api.get(`/posts/detail/${draft.slug}`);
    expect(own.status).toBe(200);
    expect(own.body.publish).toBe(false);
    const other = await bob.api.get(`/posts/detail/${draft.slug}`);
    expect(other.status).toBe(404);
    expect(other.body).toEqual(NOT_FOUND);
  });

  it('answers 404 for an unknown slug', async () => {
    const response = await alice.api.get(`/posts/detail/${word('missing')}`);
    expect(response.status).toBe(404);
    expect(response.body).toEqual(NOT_FOUND);
  });

  it('counts each user once in total_visitors', async () => {
    const w = word();
    const post = await create(alice.api, { title: `Visited ${w}`, description: 'd', publish: 'true' });
    const carol = await api.user('carol');

    await bob.api.get(`/posts/detail/${post.slug}`);
    expect((await listed(alice.api, post.slug, w)).total_visitors).toBe(1);

    const repeat = await bob.api.get(`/posts/detail/${post.slug}`);
    expect(repeat.status).toBe(200);
    expect(repeat.body.total_visitors).toBe(1);
    expect((await listed(alice.api, post.slug, w)).total_visitors).toBe(1);

    const byCarol = await carol.api.get(`/posts/detail/${post.slug}`);
    expect(byCarol.status).toBe(200);
    await carol.api.get(`/posts/detail/${post.slug}`);
    expect((await listed(alice.api, post.slug, w)).total_visitors).toBe(2);
  });

  it('keeps the visits of a post across a rename', async () => {
    const w = word();
    const post = await create(alice.api, { title: `Before ${w}`, description: 'd', publish: 'true' });
    const carol = await api.user('carol');
    await bob.api.get(`/posts/detail/${post.slug}`);

    const renamed = await alice.api.put(`/posts/detail/${post.slug}`, { form: { title: `After ${w}` } });
    expect(renamed.status).toBe(200);
    expect(renamed.body.slug).toBe(`after-${w}`);
    expect(renamed.body.total_visitors).toBe(1);

    // Bob already visited: no change. Carol is new: +1.
    expect((await bob.api.get(`/posts/detail/after-${w}`)).body.total_visitors).toBe(1);
    await carol.api.get(`/posts/detail/after-${w}`);
    expect((await listed(alice.api, `after-${w}`, w)).total_visitors).toBe(2);
  });
});

describe('PUT /posts/detail/{slug}', () => {
  it('changes a subset of fields; others keep their value; modified is refreshed', async () => {
    const w = word();
    const post = await create(alice.api, {
      title: `Edit ${w}`,
      description: 'old body',
      tags: `${w}t1`,
      keywords: 'kw',
      meta_description: 'meta',
      publish: 'true',
    });
    const response = await alice.api.put(`/posts/detail/${post.slug}`, { form: { description: 'new body' } });
    expect(response.status).toBe(200);
    expect(Object.keys(response.body)).toEqual(POST_FIELDS);
    expect(response.body).toEqual({ ...post, description: 'new body', modified: response.body.modified });
    expect(response.body.modified).toMatch(TIMESTAMP);
    expect(response.body.modified > post.modified).toBe(true);
    expect(response.body.created).toBe(post.created);

    // The change is stored.
    const stored = await listed(bob.api, post.slug, w);
    expect(stored).toEqual(response.body);

    const json = await alice.api.put(`/posts/detail/${post.slug}`, { json: { keywords: 'new kw', meta_description: '' } });
    expect(json.status).toBe(200);
    expect(json.body).toMatchObject({ title: `Edit ${w}`, description: 'new body', keywords: 'new kw', meta_description: '', tags: [`${w}t1`] });
    expect(json.body.modified > response.body.modified).toBe(true);
  });

  it('accepts an empty body and only refreshes modified', async () => {
    const w = word();
    const post = await create(alice.api, { title: `Empty ${w}`, description: 'd', publish: 'true' });
    const response = await alice.api.put(`/posts/detail/${post.slug}`, { form: {} });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ ...post, modified: response.body.modified });
    expect(response.body.modified > post.modified).toBe(true);
  });

  it('re-derives the slug from a new title; the old slug is gone', async () => {
    const w = word();
    const post = await create(alice.api, { title: `Old name ${w}`, description: 'd', publish: 'true' });
    const response = await alice.api.put(`/posts/detail/${post.slug}`, { form: { title: `New name ${w}` } });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ title: `New name ${w}`, slug: `new-name-${w}`, created: post.created });
    expect((await bob.api.get(`/posts/detail/old-name-${w}`)).status).toBe(404);
    expect((await alice.api.put(`/posts/detail/old-name-${w}`, { form: { description: 'x' } })).status).toBe(404);
    const read = await bob.api.get(`/posts/detail/new-name-${w}`);
    expect(read.status).toBe(200);
    expect(read.body.title).toBe(`New name ${w}`);
    // The freed slug can be taken by a new post.
    expect((await create(bob.api, { title: `Old name ${w}`, description: 'd' })).slug).toBe(`old-name-${w}`);
  });

  it('keeps the slug when the new title has the same slug base', async () => {
    const w = word();
    const post = await create(alice.api, { title: `${w} Hello World`, description: 'd', publish: 'true' });
    expect(post.slug).toBe(`${w}-hello-world`);
    const response = await alice.api.put(`/posts/detail/${post.slug}`, { form: { title: `${w}: Hello, World!` } });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ title: `${w}: Hello, World!`, slug: `${w}-hello-world` });

    // Also for a post whose slug carries a suffix: it does not move to another suffix.
    const second = await create(alice.api, { title: `${w} Hello World`, description: 'd', publish: 'true' });
    expect(second.slug).toBe(`${w}-hello-world-1`);
    const kept = await alice.api.put(`/posts/detail/${second.slug}`, { form: { title: `${w.toUpperCase()} hello world.` } });
    expect(kept.status).toBe(200);
    expect(kept.body.slug).toBe(`${w}-hello-world-1`);
  });

  it('gives a -N suffix when renaming to a taken slug base', async () => {
    const w = word();
    await create(alice.api, { title: `Alpha ${w}`, description: 'd', publish: 'true' });
    const beta = await create(alice.api, { title: `Beta ${w}`, description: 'd', publish: 'true' });
    const response = await alice.api.put(`/posts/detail/${beta.slug}`, { form: { title: `Alpha ${w}` } });
    expect(response.status).toBe(200);
    expect(response.body.slug).toBe(`alpha-${w}-1`);
    expect((await bob.api.get(`/posts/detail/alpha-${w}`)).body.description).toBe('d');
    expect((await bob.api.get(`/posts/detail/beta-${w}`)).status).toBe(404);
    expect((await bob.api.get(`/posts/detail/alpha-${w}-1`)).status).toBe(200);
  });

  it('replaces the tag set when tags are given, keeps it when omitted', async () => {
    const w = word();
    const post = await create(alice.api, { title: `Retag ${w}`, description: 'd', tags: `${w}a, ${w}b`, publish: 'true' });
    expect(post.tags).toEqual([`${w}a`, `${w}b`]);

    const untouched = await alice.api.put(`/posts/detail/${post.slug}`, { form: { description: 'e' } });
    expect(untouched.body.tags).toEqual([`${w}a`, `${w}b`]);

    const replaced = await alice.api.put(`/posts/detail/${post.slug}`, { form: { tags: `${w}C, ${w}A` } });
    expect(replaced.status).toBe(200);
    expect(replaced.body.tags).toEqual([`${w}C`, `${w}a`]);
    expect((await bob.api.get(`/posts/detail/${post.slug}`)).body.tags).toEqual([`${w}C`, `${w}a`]);

    const cleared = await alice.api.put(`/posts/detail/${post.slug}`, { form: { tags: '' } });
    expect(cleared.status).toBe(200);
    expect(cleared.body.tags).toEqual([]);
  });

  it('lets only the author update: 403 and nothing changes', async () => {
    const w = word();
    const post = await create(alice.api, { title: `Owned ${w}`, description: 'd', tags: `${w}t`, publish: 'true' });
    const response = await bob.api.put(`/posts/detail/${post.slug}`, {
      form: { title: `Stolen ${w}`, description: 'hacked', tags: `${w}u`, publish: 'false' },
    });
    expect(response.status).toBe(403);
    expect(response.body).toEqual(NOT_OWNER);
    expect(await listed(alice.api, post.slug, w)).toEqual(post);
    expect((await alice.api.get(`/posts/detail/stolen-${w}`)).status).toBe(404);
    expect((await alice.api.get(`/tags/detail/${w}u`)).status).toBe(404);

    const json = await bob.api.put(`/posts/detail/${post.slug}`, { json: { description: 'hacked' } });
    expect(json.status).toBe(403);
    expect(json.body).toEqual(NOT_OWNER);
  });

  it("answers 404 for another user's draft and for an unknown slug", async () => {
    const w = word();
    const draft = await create(alice.api, { title: `Hidden ${w}`, description: 'd' });
    const response = await bob.api.put(`/posts/detail/${draft.slug}`, { form: { description: 'x' } });
    expect(response.status).toBe(404);
    expect(response.body).toEqual(NOT_FOUND);
    expect((await alice.api.get(`/posts/detail/${draft.slug}`)).body.description).toBe('d');

    const unknown = await alice.api.put(`/posts/detail/${word('missing')}`, { form: { description: 'x' } });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual(NOT_FOUND);
  });

  it('validates the fields it is given', async () => {
    const w = word();
    const post = await create(alice.api, { title: `Valid ${w}`, description: 'd', publish: 'true' });
    const cases: [Record<string, string>, Record<string, string[]>][] = [
      [{ title: '' }, { title: ['This field may not be blank.'] }],
      [{ description: '  ' }, { description: ['This field may not be blank.'] }],
      [{ title: 'z'.repeat(201) }, { title: ['Ensure this field has no more than 200 characters.'] }],
      [{ publish: 'maybe' }, { publish: ['Must be a valid boolean.'] }],
    ];
    for (const [form, errors] of cases) {
      const response = await alice.api.put(`/posts/detail/${post.slug}`, { form });
      expect(response.status, JSON.stringify(form)).toBe(400);
      expect(response.body).toEqual(errors);
    }
    const symbols = await alice.api.put(`/posts/detail/${post.slug}`, { form: { title: '???' } });
    expect(symbols.status).toBe(400);
    expect(Object.keys(symbols.body)).toEqual(['title']);

    // Nothing was changed by the rejected requests.
    expect(await listed(alice.api, post.slug, w)).toEqual(post);
  });

  it('checks existence and ownership before validating', async () => {
    const w = word();
    const post = await create(alice.api, { title: `Order ${w}`, description: 'd', publish: 'true' });
    const draft = await create(alice.api, { title: `Order draft ${w}`, description: 'd' });
    const invalid = { title: '', publish: 'maybe' };

    const notOwner = await bob.api.put(`/posts/detail/${post.slug}`, { form: invalid });
    expect(notOwner.status).toBe(403);
    expect(notOwner.body).toEqual(NOT_OWNER);

    const hidden = await bob.api.put(`/posts/detail/${draft.slug}`, { form: invalid });
    expect(hidden.status).toBe(404);
    expect(hidden.body).toEqual(NOT_FOUND);

    const unknown = await alice.api.put(`/posts/detail/${word('missing')}`, { form: invalid });
    expect(unknown.status).toBe(404);

    const owner = await alice.api.put(`/posts/detail/${post.slug}`, { form: invalid });
    expect(owner.status).toBe(400);
    expect(owner.body).toEqual({ title: ['This field may not be blank.'], publish: ['Must be a valid boolean.'] });
  });
});

describe('DELETE /posts/detail/{slug}', () => {
  it('lets the author delete: 204 with no body, then 404', async () => {
    const w = word();
    const post = await create(alice.api, { title: `Doomed ${w}`, description: 'd', publish: 'true' });
    const response = await alice.api.delete(`/posts/detail/${post.slug}`);
    expect(response.status).toBe(204);
    expect(response.text).toBe('');
    const after = await alice.api.get(`/posts/detail/${post.slug}`);
    expect(after.status).toBe(404);
    expect(after.body).toEqual(NOT_FOUND);
    expect(await listed(alice.api, post.slug, w)).toBeUndefined();
    expect((await alice.api.delete(`/posts/detail/${post.slug}`)).status).toBe(404);
  });

  it('lets the author delete a draft', async () => {
    const w = word();
    const draft = await create(alice.api, { title: `Draft doomed ${w}`, description: 'd' });
    expect((await alice.api.delete(`/posts/detail/${draft.slug}`)).status).toBe(204);
    expect((await alice.api.get(`/posts/detail/${draft.slug}`)).status).toBe(404);
  });

  it('refuses other users: 403 on a published post, 404 on a draft; the post stays', async () => {
    const w = word();
    const post = await create(alice.api, { title: `Kept ${w}`, description: 'd', publish: 'true' });
    const draft = await create(alice.api, { title: `Kept draft ${w}`, description: 'd' });

    const response = await bob.api.delete(`/posts/detail/${post.slug}`);
    expect(response.status).toBe(403);
    expect(response.body).toEqual(NOT_OWNER);
    expect((await bob.api.get(`/posts/detail/${post.slug}`)).status).toBe(200);

    const hidden = await bob.api.delete(`/posts/detail/${draft.slug}`);
    expect(hidden.status).toBe(404);
    expect(hidden.body).toEqual(NOT_FOUND);
    expect((await alice.api.get(`/posts/detail/${draft.slug}`)).status).toBe(200);
  });
});

describe('counters', () => {
  it("keeps the user's total_posts equal to their published posts", async () => {
    const dave = await api.user('dave');
    const w = word();
    expect(await userTotalPosts(dave.username)).toBe(0);

    const draft = await create(dave.api, { title: `Count draft ${w}`, description: 'd' });
    expect(await userTotalPosts(dave.username)).toBe(0);

    const published = await create(dave.api, { title: `Count pub ${w}`, description: 'd', publish: 'true' });
    expect(await userTotalPosts(dave.username)).toBe(1);

    expect((await dave.api.put(`/posts/detail/${draft.slug}`, { form: { publish: 'true' } })).status).toBe(200);
    expect(await userTotalPosts(dave.username)).toBe(2);

    // Updating without touching publish, or publishing again, changes nothing.
    expect((await dave.api.put(`/posts/detail/${draft.slug}`, { form: { publish: 'yes', description: 'e' } })).status).toBe(200);
    expect((await dave.api.put(`/posts/detail/${published.slug}`, { form: { title: `Count renamed ${w}` } })).status).toBe(200);
    expect(await userTotalPosts(dave.username)).toBe(2);

    expect((await dave.api.put(`/posts/detail/${draft.slug}`, { form: { publish: 'false' } })).status).toBe(200);
    expect(await userTotalPosts(dave.username)).toBe(1);

    // A refused change by someone else leaves the counter alone.
    expect((await bob.api.put(`/posts/detail/count-renamed-${w}`, { form: { publish: 'false' } })).status).toBe(403);
    expect((await bob.api.delete(`/posts/detail/count-renamed-${w}`)).status).toBe(403);
    expect(await userTotalPosts(dave.username)).toBe(1);

    expect((await dave.api.delete(`/posts/detail/count-renamed-${w}`)).status).toBe(204);
    expect(await userTotalPosts(dave.username)).toBe(0);

    // Deleting a draft does not go below zero or touch the count.
    expect((await dave.api.delete(`/posts/detail/${draft.slug}`)).status).toBe(204);
    expect(await userTotalPosts(dave.username)).toBe(0);
  });

  it("keeps each tag's total_posts equal to the published posts carrying it", async () => {
    const w = word();
    const [t1, t2, t3] = [`${w}-one`, `${w}-two`, `${w}-three`];
    const post = await create(alice.api, { title: `Tagged ${w}`, description: 'd', tags: `${w} one, ${w} two`, publish: 'true' });
    expect(await tagTotalPosts(t1)).toBe(1);
    expect(await tagTotalPosts(t2)).toBe(1);

    // A draft creates its unknown tags with 0 and does not count for known ones.
    const draft = await create(bob.api, { title: `Tagged draft ${w}`, description: 'd', tags: `${w} ONE, ${w} three` });
    expect(draft.tags).toEqual([`${w} one`, `${w} three`]);
    expect(await tagTotalPosts(t1)).toBe(1);
    expect(await tagTotalPosts(t3)).toBe(0);

    // Publishing the draft counts it for its tags.
    expect((await bob.api.put(`/posts/detail/${draft.slug}`, { form: { publish: 'on' } })).status).toBe(200);
    expect(await tagTotalPosts(t1)).toBe(2);
    expect(await tagTotalPosts(t3)).toBe(1);

    // Replacing the tag set moves the counts.
    expect((await alice.api.put(`/posts/detail/${post.slug}`, { form: { tags: `${w} two, ${w} three` } })).status).toBe(200);
    expect([await tagTotalPosts(t1), await tagTotalPosts(t2), await tagTotalPosts(t3)]).toEqual([1, 1, 2]);

    // A rename changes no count.
    const renamed = await alice.api.put(`/posts/detail/${post.slug}`, { form: { title: `Tagged renamed ${w}` } });
    expect(renamed.status).toBe(200);
    expect([await tagTotalPosts(t1), await tagTotalPosts(t2), await tagTotalPosts(t3)]).toEqual([1, 1, 2]);

    // Unpublishing removes the post from its tags' counts; republishing adds it back.
    expect((await alice.api.put(`/posts/detail/${renamed.body.slug}`, { form: { publish: 'off' } })).status).toBe(200);
    expect([await tagTotalPosts(t1), await tagTotalPosts(t2), await tagTotalPosts(t3)]).toEqual([1, 0, 1]);
    expect((await alice.api.put(`/posts/detail/${renamed.body.slug}`, { form: { publish: '1' } })).status).toBe(200);
    expect([await tagTotalPosts(t1), await tagTotalPosts(t2), await tagTotalPosts(t3)]).toEqual([1, 1, 2]);

    // Deleting removes it.
    expect((await alice.api.delete(`/posts/detail/${renamed.body.slug}`)).status).toBe(204);
    expect([await tagTotalPosts(t1), await tagTotalPosts(t2), await tagTotalPosts(t3)]).toEqual([1, 0, 1]);
    expect((await bob.api.delete(`/posts/detail/${draft.slug}`)).status).toBe(204);
    expect([await tagTotalPosts(t1), await tagTotalPosts(t2), await tagTotalPosts(t3)]).toEqual([0, 0, 0]);
  });

  it('counts a tag change and a publish in the same update', async () => {
    const w = word();
    const draft = await create(alice.api, { title: `Both ${w}`, description: 'd', tags: `${w} old` });
    expect(await tagTotalPosts(`${w}-old`)).toBe(0);
    const before = await userTotalPosts(alice.username);
    const response = await alice.api.put(`/posts/detail/${draft.slug}`, { form: { tags: `${w} new`, publish: 'true' } });
    expect(response.status).toBe(200);
    expect(await tagTotalPosts(`${w}-old`)).toBe(0);
    expect(await tagTotalPosts(`${w}-new`)).toBe(1);
    expect(await userTotalPosts(alice.username)).toBe(before + 1);
  });
});

describe('authentication', () => {
  it('answers 401 to requests without a token', async () => {
    const w = word();
    const post = await create(alice.api, { title: `Auth ${w}`, description: 'd', publish: 'true' });
    const anonymous = api.client();
    const responses = await Promise.all([
      anonymous.post('/posts', { form: { title: `Anon ${w}`, description: 'd', publish: 'true' } }),
      anonymous.get('/posts'),
      anonymous.get(`/posts/detail/${post.slug}`),
      anonymous.put(`/posts/detail/${post.slug}`, { form: { title: `Anon ${w}` } }),
      anonymous.delete(`/posts/detail/${post.slug}`),
    ]);
    for (const response of responses) {
      expect(response.status).toBe(401);
      expect(response.body).toEqual({ detail: 'Authentication credentials were not provided.' });
    }
    expect(await listed(alice.api, post.slug, w)).toEqual(post);
    expect((await alice.api.get(`/posts/detail/anon-${w}`)).status).toBe(404);
  });

  it('answers 401 to an unknown token', async () => {
    const w = word();
    const post = await create(alice.api, { title: `Bad token ${w}`, description: 'd', publish: 'true' });
    const stranger = api.client('0'.repeat(40));
    const responses = await Promise.all([
      stranger.post('/posts', { form: { title: `Bad ${w}`, description: 'd' } }),
      stranger.get(`/posts/detail/${post.slug}`),
      stranger.put(`/posts/detail/${post.slug}`, { form: { description: 'x' } }),
      stranger.delete(`/posts/detail/${post.slug}`),
    ]);
    for (const response of responses) {
      expect(response.status).toBe(401);
      expect(response.body).toEqual({ detail: 'Invalid token.' });
    }
    expect(await listed(alice.api, post.slug, w)).toEqual(post);
  });
});
