import { describe, expect, it } from 'vitest';
import { unique, type ApiClient } from '../support/api.ts';
import { useApi } from '../support/fixture.ts';

const api = useApi({ users: ['alice', 'bob'] });
const { alice, bob } = api.users;

/** A title no other test uses; its slug is the lower-cased title. */
const uniqueTitle = (prefix = 'Tag') => unique(prefix);

async function createTag(client: ApiClient, fields: Record<string, string>, encoding: 'form' | 'json' = 'form') {
  return client.post('/tags', encoding === 'form' ? { form: fields } : { json: fields });
}

async function tagDetail(slug: string) {
  return alice.api.get(`/tags/detail/${slug}`);
}

/** Follows rel="next" links from a first response and returns every page's body. */
async function allPages(client: ApiClient, first: { status: number; headers: Headers; body: any }) {
  const pages = [first.body];
  let response = first;
  for (let i = 0; i < 50; i++) {
    const link = response.headers.get('link');
    if (!link) return pages;
    const match = /^<([^>]+)>; rel="next"$/.exec(link);
    expect(match, link).not.toBeNull();
    response = await client.get(match![1]!);
    expect(response.status).toBe(200);
    pages.push(response.body);
  }
  throw new Error('too many pages');
}

describe('POST /tags', () => {
  it.each(['form', 'json'] as const)('creates a tag from a %s body: 201, fields in contract order', async (encoding) => {
    const title = uniqueTitle('Created');
    const slug = `explicit-${title.toLowerCase()}`;
    const response = await createTag(alice.api, { title, slug }, encoding);
    expect(response.status).toBe(201);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(response.text).toBe(JSON.stringify({ title, slug, total_posts: 0 }));
    expect(Object.keys(response.body)).toEqual(['title', 'slug', 'total_posts']);

    const detail = await tagDetail(slug);
    expect(detail.status).toBe(200);
    expect(detail.text).toBe(JSON.stringify({ title, slug, total_posts: 0 }));
  });

  it('derives the slug from the title when it is absent or blank', async () => {
    const suffix = unique('').toLowerCase();
    const absent = await createTag(alice.api, { title: `Hello World ${suffix}` });
    expect(absent.status).toBe(201);
    expect(absent.body).toEqual({ title: `Hello World ${suffix}`, slug: `hello-world-${suffix}`, total_posts: 0 });

    const blank = await createTag(alice.api, { title: `Crème Brûlée ${suffix}`, slug: '' }, 'json');
    expect(blank.status).toBe(201);
    expect(blank.body.slug).toBe(`creme-brulee-${suffix}`);

    expect((await tagDetail(`hello-world-${suffix}`)).body.title).toBe(`Hello World ${suffix}`);
    expect((await tagDetail(`creme-brulee-${suffix}`)).body.title).toBe(`Crème Brûlée ${suffix}`);
  });

  it('trims the title', async () => {
    const title = uniqueTitle('Trim');
    const response = await createTag(alice.api, { title: `   ${title}  ` });
    expect(response.status).toBe(201);
    expect(response.body).toEqual({ title, slug: title.toLowerCase(), total_posts: 0 });
  });

  it('accepts Unicode titles with an explicit slug, and counts length in characters', async () => {
    const slug = unique('emoji').toLowerCase();
    const title = '🎉'.repeat(100);
    const response = await createTag(alice.api, { title, slug }, 'json');
    expect(response.status).toBe(201);
    expect(response.body).toEqual({ title, slug, total_posts: 0 });
    expect((await tagDetail(slug)).body.title).toBe(title);

    const japanese = await createTag(alice.api, { title: `日本語 ${slug}`, slug: `ja-${slug}` });
    expect(japanese.status).toBe(201);
    expect(japanese.body.title).toBe(`日本語 ${slug}`);
  });

  it('requires a title', async () => {
    const missing = await createTag(alice.api, { slug: unique('noslug') });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ title: ['This field is required.'] });

    const blank = await createTag(alice.api, { title: '   ' }, 'json');
    expect(blank.status).toBe(400);
    expect(blank.body).toEqual({ title: ['This field may not be blank.'] });

    const nul = await createTag(alice.api, { title: null } as any, 'json');
    expect(nul.status).toBe(400);
    expect(nul.body).toEqual({ title: ['This field may not be null.'] });
  });

  it('limits the title to 100 characters', async () => {
    const base = unique('l').toLowerCase();
    const exact = `${base}${'x'.repeat(100 - base.length)}`;
    expect([...exact].length).toBe(100);
    const ok = await createTag(alice.api, { title: exact });
    expect(ok.status).toBe(201);
    expect(ok.body.title).toBe(exact);

    const tooLong = await createTag(alice.api, { title: `${exact}y`, slug: unique('long').toLowerCase() });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body).toEqual({ title: ['Ensure this field has no more than 100 characters.'] });

    const emoji = await createTag(alice.api, { title: '🎉'.repeat(101), slug: unique('long').toLowerCase() }, 'json');
    expect(emoji.status).toBe(400);
    expect(emoji.body).toEqual({ title: ['Ensure this field has no more than 100 characters.'] });
  });

  it('rejects a title that yields no slug when no slug is given', async () => {
    const response = await createTag(alice.api, { title: '!!! ???' });
    expect(response.status).toBe(400);
    expect(Object.keys(response.body)).toEqual(['title']);
    expect(response.body.title).toHaveLength(1);
    expect(typeof response.body.title[0]).toBe('string');
  });

  it.each(['Upper', 'has space', 'a--b', '-leading', 'trailing-', 'under_score', 'ümlaut', 'dot.ted', 'slash/ed', '🎉'])(
    'rejects the slug %j with a "slug" error and creates nothing',
    async (slug) => {
      const title = uniqueTitle('BadSlug');
      const response = await createTag(alice.api, { title, slug });
      expect(response.status).toBe(400);
      expect(Object.keys(response.body)).toEqual(['slug']);
      expect(response.body.slug).toHaveLength(1);
      expect(typeof response.body.slug[0]).toBe('string');
      // The title was not claimed: it can be used now.
      expect((await createTag(alice.api, { title })).status).toBe(201);
    },
  );

  it('rejects a slug that is not a string', async () => {
    const response = await createTag(alice.api, { title: uniqueTitle('Typed'), slug: true } as any, 'json');
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ slug: ['Not a valid string.'] });
  });

  it('reports title and slug errors together', async () => {
    const response = await createTag(alice.api, { title: '', slug: 'Not Valid' });
    expect(response.status).toBe(400);
    expect(Object.keys(response.body).sort()).toEqual(['slug', 'title']);
    expect(response.body.title).toEqual(['This field may not be blank.']);
  });

  it('answers 409 for a title that exists in any case, and writes nothing', async () => {
    const title = uniqueTitle('Python');
    expect((await createTag(alice.api, { title })).status).toBe(201);

    for (const variant of [title, title.toUpperCase(), title.toLowerCase(), `  ${title} `]) {
      const otherSlug = unique('other').toLowerCase();
      const response = await createTag(bob.api, { title: variant, slug: otherSlug });
      expect(response.status).toBe(409);
      expect(response.body).toEqual({ detail: 'Tag already exists.' });
      expect((await tagDetail(otherSlug)).status).toBe(404);
    }
    // Derived slug would collide too; still a 409, never a second tag.
    const derived = await createTag(bob.api, { title: title.toUpperCase() }, 'json');
    expect(derived.status).toBe(409);
    expect(derived.body).toEqual({ detail: 'Tag already exists.' });

    const listed = await alice.api.get('/tags', { query: { q: title } });
    expect(listed.body).toEqual([{ title, slug: title.toLowerCase(), total_posts: 0 }]);
  });

  it('answers 409 for a slug that exists, and does not claim the new title', async () => {
    const taken = uniqueTitle('Taken');
    expect((await createTag(alice.api, { title: taken })).status).toBe(201);
    const newTitle = uniqueTitle('Fresh');
    const response = await createTag(bob.api, { title: newTitle, slug: taken.toLowerCase() });
    expect(response.status).toBe(409);
    expect(response.body).toEqual({ detail: 'Tag already exists.' });
    expect((await tagDetail(taken.toLowerCase())).body.title).toBe(taken);
    // The failed request left no claim on its title behind.
    const retry = await createTag(bob.api, { title: newTitle });
    expect(retry.status).toBe(201);
    expect(retry.body.slug).toBe(newTitle.toLowerCase());
  });

  it("suffixes a derived slug that another title holds, as a post's (docs/api.md, Slugs)", async () => {
    const suffix = unique('').toLowerCase();
    expect((await createTag(alice.api, { title: `C ${suffix}` })).status).toBe(201);
    const plus = await createTag(alice.api, { title: `C++ ${suffix}` });
    expect(plus.status).toBe(201);
    expect(plus.body).toEqual({ title: `C++ ${suffix}`, slug: `c-${suffix}-1`, total_posts: 0 });
    const sharp = await createTag(bob.api, { title: `C# ${suffix}` }, 'json');
    expect(sharp.status).toBe(201);
    expect(sharp.body.slug).toBe(`c-${suffix}-2`);
    expect((await tagDetail(`c-${suffix}-1`)).body.title).toBe(`C++ ${suffix}`);
    // A slug given in the request that is taken is still 409.
    const given = await createTag(bob.api, { title: `C-- ${suffix}`, slug: `c-${suffix}` });
    expect(given.status).toBe(409);
    expect(given.body).toEqual({ detail: 'Tag already exists.' });
  });

  it('answers 409 for a title first created through a post', async () => {
    const title = uniqueTitle('FromPost');
    const post = await alice.api.post('/posts', { form: { title: unique('Post'), description: 'd', tags: title } });
    expect(post.status).toBe(201);
    const response = await createTag(bob.api, { title: title.toLowerCase(), slug: unique('x').toLowerCase() });
    expect(response.status).toBe(409);
    expect(response.body).toEqual({ detail: 'Tag already exists.' });
  });

  it('creates exactly one tag when the same title is posted concurrently in different cases', async () => {
    const title = uniqueTitle('Race');
    const variants = [title, title.toUpperCase(), title.toLowerCase(), title, title.toUpperCase(), title.toLowerCase()];
    const responses = await Promise.all(
      variants.map((variant, i) => createTag(i % 2 ? alice.api : bob.api, { title: variant, slug: `${title.toLowerCase()}-${i}` })),
    );
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(variants.length - 1);
    const listed = await alice.api.get('/tags', { query: { q: title } });
    expect(listed.body).toHaveLength(1);
  });
});

describe('GET /tags/detail/{slug}', () => {
  it('answers 404 for an unknown or malformed slug', async () => {
    for (const slug of [unique('nope').toLowerCase(), 'Not-A-Slug', 'a--b', '%F0%9F%8E%89', 'x'.repeat(300)]) {
      const response = await alice.api.get(`/tags/detail/${slug}`);
      expect(response.status, slug).toBe(404);
      expect(response.body).toEqual({ detail: 'Not found.' });
    }
  });
});

describe('GET /tags', () => {
  it('lists newest first and searches titles case-insensitively', async () => {
    const marker = unique('Mark');
    const titles = [`Alpha ${marker}`, `beta-${marker.toLowerCase()}`, `${marker.toUpperCase()} Gamma`, `Delta ${marker}`];
    for (const title of titles) expect((await createTag(alice.api, { title })).status).toBe(201);
    await createTag(alice.api, { title: uniqueTitle('Unrelated') });

    for (const q of [marker, marker.toLowerCase(), marker.toUpperCase(), marker.slice(2, 9)]) {
      const response = await bob.api.get('/tags', { query: { q } });
      expect(response.status).toBe(200);
      expect(response.body.map((t: any) => t.title)).toEqual([...titles].reverse());
      expect(response.headers.get('link')).toBeNull();
    }
    const everything = await bob.api.get('/tags');
    expect(everything.status).toBe(200);
    const listed = everything.body.map((t: any) => t.title);
    expect(listed.filter((t: string) => titles.includes(t))).toEqual([...titles].reverse());
    for (const tag of everything.body) expect(Object.keys(tag)).toEqual(['title', 'slug', 'total_posts']);
  });

  it('returns [] when nothing matches, and 404 past the end', async () => {
    const none = await alice.api.get('/tags', { query: { q: unique('nothing-matches') } });
    expect(none.status).toBe(200);
    expect(none.body).toEqual([]);
    const past = await alice.api.get('/tags', { query: { q: unique('nothing-matches'), page: '2' } });
    expect(past.status).toBe(404);
    expect(past.body).toEqual({ detail: 'Invalid page.' });
  });

  it('pages with page/page_size and a Link to the next page', async () => {
    const marker = unique('Page');
    const titles: string[] = [];
    for (let i = 0; i < 5; i++) {
      const title = `${marker} ${i}`;
      titles.push(title);
      expect((await createTag(alice.api, { title })).status).toBe(201);
    }
    const newest = [...titles].reverse();

    const first = await alice.api.get('/tags', { query: { q: marker, page_size: '2' } });
    expect(first.status).toBe(200);
    expect(first.body.map((t: any) => t.title)).toEqual(newest.slice(0, 2));
    const link = first.headers.get('link');
    expect(link).toMatch(/^<http[^>]+>; rel="next"$/);
    const next = new URL(/^<([^>]+)>/.exec(link!)![1]!);
    expect(next.pathname).toBe('/api/v1/tags');
    expect(next.searchParams.get('q')).toBe(marker);
    expect(next.searchParams.get('page')).toBe('2');
    expect(next.searchParams.get('page_size')).toBe('2');

    const pages = await allPages(alice.api, first);
    expect(pages.map((page) => page.map((t: any) => t.title))).toEqual([newest.slice(0, 2), newest.slice(2, 4), newest.slice(4)]);

    for (const [page, expected] of [
      ['1', newest.slice(0, 2)],
      ['2', newest.slice(2, 4)],
      ['3', newest.slice(4)],
    ] as const) {
      const byNumber = await alice.api.get('/tags', { query: { q: marker, page_size: '2', page } });
      expect(byNumber.status).toBe(200);
      expect(byNumber.body.map((t: any) => t.title)).toEqual(expected);
      expect(byNumber.headers.get('link') === null).toBe(page === '3');
    }

    for (const page of ['4', '0', '-1', 'abc', '1.5']) {
      const bad = await alice.api.get('/tags', { query: { q: marker, page_size: '2', page } });
      expect(bad.status, page).toBe(404);
      expect(bad.body).toEqual({ detail: 'Invalid page.' });
    }
  });

  it('answers 404 Invalid page. for a forged cursor', async () => {
    const forged = Buffer.from(JSON.stringify({ PK: 'POST#x', SK: 'POST', GSI1PK: 'POSTS', GSI1SK: 'x' })).toString('base64url');
    for (const cursor of [forged, 'garbage', Buffer.from('[1,2]').toString('base64url')]) {
      const response = await alice.api.get('/tags', { query: { page: '2', cursor } });
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ detail: 'Invalid page.' });
    }
  });
});

describe('total_posts', () => {
  it('counts the published posts that carry the tag', async () => {
    const title = uniqueTitle('Counted');
    const slug = title.toLowerCase();
    const side = uniqueTitle('Side');
    expect((await createTag(alice.api, { title })).status).toBe(201);
    const count = async () => {
      const detail = await tagDetail(slug);
      expect(detail.status).toBe(200);
      const listed = await bob.api.get('/tags', { query: { q: title } });
      expect(listed.body).toEqual([detail.body]);
      return detail.body.total_posts as number;
    };

    // A published post whose tag is spelled in another case joins the existing tag.
    const first = await alice.api.post('/posts', {
      form: { title: unique('First'), description: 'd', tags: ` ${title.toUpperCase()} , ${side}`, publish: 'true' },
    });
    expect(first.status).toBe(201);
    expect(first.body.tags).toEqual([title, side]);
    expect(await count()).toBe(1);
    const sideCount = async () => (await tagDetail(side.toLowerCase())).body.total_posts as number;
    expect(await sideCount()).toBe(1);

    // A draft does not count.
    const draft = await bob.api.post('/posts', { json: { title: unique('Draft'), description: 'd', tags: title.toLowerCase() } });
    expect(draft.status).toBe(201);
    expect(await count()).toBe(1);

    // Publishing the draft counts it.
    expect((await bob.api.put(`/posts/detail/${draft.body.slug}`, { form: { publish: 'true' } })).status).toBe(200);
    expect(await count()).toBe(2);

    // Unpublishing the first post does not.
    expect((await alice.api.put(`/posts/detail/${first.body.slug}`, { form: { publish: 'false' } })).status).toBe(200);
    expect(await count()).toBe(1);
    expect(await sideCount()).toBe(0);

    // Updating other fields (even the title) of a published post keeps the count.
    const renamed = await bob.api.put(`/posts/detail/${draft.body.slug}`, { form: { title: unique('Renamed'), description: 'e' } });
    expect(renamed.status).toBe(200);
    expect(await count()).toBe(1);

    // Replacing the tags removes it from the count; putting it back restores it.
    expect((await bob.api.put(`/posts/detail/${renamed.body.slug}`, { form: { tags: side } })).status).toBe(200);
    expect(await count()).toBe(0);
    expect((await bob.api.put(`/posts/detail/${renamed.body.slug}`, { form: { tags: `${title},${side}` } })).status).toBe(200);
    expect(await count()).toBe(1);
    expect(await sideCount()).toBe(1);

    // Deleting a published post takes it out of the count.
    expect((await bob.api.delete(`/posts/detail/${renamed.body.slug}`)).status).toBe(204);
    expect(await count()).toBe(0);

    const other = await tagDetail(side.toLowerCase());
    expect(other.body).toEqual({ title: side, slug: side.toLowerCase(), total_posts: 0 });
  });

  it('counts a tag created by a published post from the start', async () => {
    const title = uniqueTitle('Born');
    const post = await alice.api.post('/posts', { form: { title: unique('Post'), description: 'd', tags: title, publish: 'yes' } });
    expect(post.status).toBe(201);
    expect((await tagDetail(title.toLowerCase())).body).toEqual({ title, slug: title.toLowerCase(), total_posts: 1 });
  });
});

describe('authentication', () => {
  const cases = [
    ['GET', '/tags'],
    ['POST', '/tags'],
    ['GET', '/tags/detail/anything'],
  ] as const;

  it.each(cases)('%s %s without a token is 401', async (method, path) => {
    const response = await api.client().request(method, path, method === 'POST' ? { form: { title: uniqueTitle('Anon') } } : {});
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ detail: 'Authentication credentials were not provided.' });
    expect(response.headers.get('www-authenticate')).toBe('Token');
  });

  it.each(cases)('%s %s with an unknown token is 401 Invalid token.', async (method, path) => {
    const response = await api.client('0'.repeat(40)).request(method, path, method === 'POST' ? { form: { title: uniqueTitle('Anon') } } : {});
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ detail: 'Invalid token.' });
  });

  it('creates nothing for an unauthenticated POST, and hides tags from it', async () => {
    const title = uniqueTitle('Sneaky');
    const existing = uniqueTitle('Existing');
    expect((await createTag(alice.api, { title: existing })).status).toBe(201);
    const anon = await api.client().post('/tags', { form: { title } });
    expect(anon.status).toBe(401);
    const badToken = await api.client('f'.repeat(40)).post('/tags', { json: { title } });
    expect(badToken.status).toBe(401);
    expect((await tagDetail(title.toLowerCase())).status).toBe(404);
    // A known tag's detail does not leak to a bad token either.
    const leaked = await api.client('a'.repeat(40)).get(`/tags/detail/${existing.toLowerCase()}`);
    expect(leaked.status).toBe(401);
    expect(leaked.body).toEqual({ detail: 'Invalid token.' });
  });

  it('rejects a token after logout', async () => {
    const carol = await api.user('carol');
    expect((await carol.api.get('/logout')).status).toBe(200);
    const response = await carol.api.get('/tags');
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ detail: 'Invalid token.' });
  });
});

// Last: creates enough tags to fill more than one page of the maximum size.
describe('page size limit', () => {
  it('never returns more than 500 tags per page', async () => {
    const marker = unique('Bulk');
    const total = 503;
    for (let start = 0; start < total; start += 40) {
      const batch = Array.from({ length: Math.min(40, total - start) }, (_, i) => `${marker} ${start + i}`);
      const responses = await Promise.all(batch.map((title) => createTag(alice.api, { title })));
      expect(responses.map((r) => r.status)).toEqual(batch.map(() => 201));
    }

    for (const pageSize of [undefined, '500', '1000']) {
      const query: Record<string, string> = { q: marker, ...(pageSize ? { page_size: pageSize } : {}) };
      const first = await alice.api.get('/tags', { query });
      expect(first.status).toBe(200);
      expect(first.body).toHaveLength(500);
      expect(first.headers.get('link')).toMatch(/rel="next"$/);
      const pages = await allPages(alice.api, first);
      expect(pages.map((p) => p.length)).toEqual([500, 3]);
      const titles = pages.flat().map((t: any) => t.title);
      expect(new Set(titles).size).toBe(total);
    }
    const second = await alice.api.get('/tags', { query: { q: marker, page: '2' } });
    expect(second.status).toBe(200);
    expect(second.body).toHaveLength(3);
  });
});
