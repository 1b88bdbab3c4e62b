import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setModerator } from '#lib/auth/moderators.ts';
import { setFeatured } from '#lib/posts/feature.ts';
import { FRESH_MS } from '#lib/lists/search.ts';
import { countDynamoDbCalls, type CallCounter } from '../../support/dynamodb-calls.ts';
import { unique } from '../../support/api.ts';
import { useApi } from '../../support/fixture.ts';

// DynamoDB calls per request: the floor of docs/performance.md. Calls are stable, so they are
// asserted exactly; "||" in the comments means issued in parallel (one round trip).

// The comment suites' rate limits out of the way: the comments below are made by the hundred.
const api = useApi({ users: ['alice', 'bob'], apiEnvironment: { COMMENTS_PER_MINUTE: '100000', COMMENTS_PER_DAY: '1000000' } });
const { alice, bob } = api.users;
let calls: CallCounter;
const UNKNOWN_TOKEN = 'f'.repeat(40);

// Counting starts once the users are made (useApi's beforeAll runs first).
beforeAll(() => {
  calls = countDynamoDbCalls();
});
afterAll(() => calls?.detach());

/** Sends one request and returns its status and the DynamoDB calls it made, by command. */
async function counted(send: () => Promise<{ status: number }>) {
  let status = 0;
  const byCommand = await calls.measure(async () => {
    status = (await send()).status;
  });
  const total = Object.values(byCommand).reduce((sum, n) => sum + n, 0);
  return { status, total, byCommand };
}

async function newPost(fields: Record<string, string> = {}) {
  const response = await alice.api.post('/posts', { form: { title: unique('Post '), description: 'body', publish: 'true', ...fields } });
  expect(response.status).toBe(201);
  return response.body as { slug: string; title: string };
}

describe('authentication', () => {
  it('login: the credentials and the failure counters in one BatchGetItem, then one transaction', async () => {
    const result = await counted(() => api.client().post('/login', { json: { username: alice.username, password: alice.password } }));
    expect(result).toEqual({ status: 200, total: 2, byCommand: { BatchGetItem: 1, TransactWriteItems: 1 } });
  });

  it('a failed login costs the same calls for a known and an unknown username: one read, one transaction counting it', async () => {
    const known = await counted(() => api.client().post('/login', { json: { username: alice.username, password: 'wrong password' } }));
    const unknown = await counted(() => api.client().post('/login', { json: { username: unique('nobody'), password: 'wrong password' } }));
    expect(known).toEqual({ status: 400, total: 2, byCommand: { BatchGetItem: 1, TransactWriteItems: 1 } });
    expect(unknown).toEqual(known);
  });

  it('sign-up: the attempt count || the setting and claims, then the user id, then one transaction', async () => {
    const result = await counted(() => api.client().post('/users', { json: { username: unique('signup'), password: 'correct horse battery' } }));
    expect(result).toEqual({ status: 201, total: 4, byCommand: { UpdateItem: 2, BatchGetItem: 1, TransactWriteItems: 1 } });
  });

  it('password change: token and credentials in one read, the tokens listed, one transaction, one sweep', async () => {
    const owner = await api.user('owner');
    const result = await counted(() =>
      owner.api.post(`/users/detail/${owner.username}/password`, { json: { old_password: owner.password, new_password: 'another long passphrase' } }),
    );
    expect(result).toEqual({ status: 200, total: 4, byCommand: { BatchGetItem: 1, Query: 2, TransactWriteItems: 1 } });
  });

  it('logout: one conditional delete (alone in a transaction, so that a resend after a lost answer is told the delete it made)', async () => {
    const { token } = (await api.client().post('/login', { json: { username: bob.username, password: bob.password } })).body;
    const result = await counted(() => api.client(token).get('/logout'));
    expect(result).toEqual({ status: 200, total: 1, byCommand: { TransactWriteItems: 1 } });
  });

  it('auth check: one read of the token', async () => {
    expect(await counted(() => alice.api.get('/auth'))).toEqual({ status: 200, total: 1, byCommand: { GetItem: 1 } });
  });

  it('an unknown token costs one call; a missing or malformed one costs none', async () => {
    const unknown = api.client(UNKNOWN_TOKEN);
    expect((await counted(() => unknown.get('/auth'))).total).toBe(1);
    expect((await counted(() => unknown.get('/users/detail/anyone'))).total).toBe(1);
    expect((await counted(() => unknown.get('/posts/detail/some-post'))).total).toBe(1);
    expect((await counted(() => unknown.post('/posts', { form: { title: 'T', description: 'd' } }))).total).toBe(1);
    expect((await counted(() => unknown.put('/posts/detail/some-post', { form: { title: 'T' } }))).total).toBe(1);
    expect((await counted(() => unknown.delete('/posts/detail/some-post'))).total).toBe(1);
    expect((await counted(() => unknown.post('/tags', { form: { title: unique('T') } }))).total).toBe(1);
    expect((await counted(() => unknown.put(`/users/detail/${alice.username}`, { form: { location: 'x' } }))).total).toBe(1);
    expect((await counted(() => api.client().get('/auth'))).total).toBe(0);
    expect((await counted(() => api.client('not-hex').get('/posts/detail/x'))).total).toBe(0);
    // Lists start their query with the token check; without a usable token neither is sent.
    for (const path of ['/posts', '/posts/me', '/posts/tagged/any', `/posts/author/${alice.username}`, '/tags', '/users']) {
      expect((await counted(() => api.client().get(path))).total, path).toBe(0);
      expect((await counted(() => api.client('not-hex').get(path))).total, path).toBe(0);
    }
  });
});

describe('reads', () => {
  it('user detail and tag detail: token and item in one BatchGetItem', async () => {
    await alice.api.post('/tags', { form: { title: unique('Tag') } });
    const tags = (await alice.api.get('/tags', { query: { page_size: '1' } })).body;
    expect(await counted(() => alice.api.get(`/users/detail/${bob.username}`))).toEqual({ status: 200, total: 1, byCommand: { BatchGetItem: 1 } });
    expect(await counted(() => alice.api.get(`/tags/detail/${tags[0].slug}`))).toEqual({ status: 200, total: 1, byCommand: { BatchGetItem: 1 } });
    expect(await counted(() => alice.api.get('/tags/detail/no-such-tag'))).toEqual({ status: 404, total: 1, byCommand: { BatchGetItem: 1 } });
  });

  it("users and tags lists: the token read (with the list's total) || one Query: one round trip", async () => {
    const withTotal = { BatchGetItem: 1, Query: 1 };
    for (const path of ['/users', '/tags']) {
      const usage = await calls.usage(() => alice.api.get(path));
      expect(usage.calls, path).toEqual(withTotal);
      expect(usage.rounds, path).toBe(1);
    }
    // A filtered tags list has no total: the token alone.
    expect(await counted(() => alice.api.get('/tags', { query: { q: 'tag' } }))).toEqual({ status: 200, total: 2, byCommand: { GetItem: 1, Query: 1 } });
  });

  it('post lists, page 1: the token read || the entries Query (with q: the postings Query of each word and the fresh entries), then one BatchGetItem of the posts: two round trips, every list and sort', async () => {
    const tag = unique('Listed');
    const post = await newPost({ tags: tag, title: unique('Listed post ') });
    await setFeatured(post.slug, true);
    const tagSlug = (await alice.api.get('/tags', { query: { q: tag } })).body[0].slug;
    // Without q the token's read is a BatchGetItem with the list's total (the site's or the
    // caller's counts; a tag's and an author's are the tag and the profile): a search has none.
    const lists: [path: string, token: Record<string, number>][] = [
      ['/posts', { GetItem: 1 }],
      ['/posts/me', { GetItem: 1 }],
      [`/posts/tagged/${tagSlug}`, { BatchGetItem: 1 }],
      [`/posts/author/${alice.username}`, { BatchGetItem: 1 }],
    ];
    for (const [path, token] of lists) {
      for (const sort of ['newest', 'featured', 'views', 'votes', 'active']) {
        for (const q of [undefined, 'listed post']) {
          const usage = await calls.usage(async () => {
            const response = await alice.api.get(path, { query: { sort, page_size: '10', ...(q ? { q } : {}) } });
            expect(response.status).toBe(200);
            expect(
              response.body.map((p: { slug: string }) => p.slug),
              `${path} ${sort} ${q}`,
            ).toContain(post.slug);
          });
          const withTotal = !q && (path === '/posts' || path === '/posts/me');
          const tokenRead = withTotal ? { BatchGetItem: 1 } : token;
          const batchGets = (tokenRead.BatchGetItem ?? 0) + 1;
          // With q: one Query of the search index per word, one of the list's fresh entries, and
          // one of the list's leading entries for the sorts the postings do not carry, for a
          // tag's list and for featured (the postings carry neither tags nor the featured flag).
          const leading = ['views', 'votes', 'active', 'featured'].includes(sort) || path.startsWith('/posts/tagged/');
          const queries = q ? q.split(' ').length + 1 + (leading ? 1 : 0) : 1;
          expect(usage.calls, `${path} sort=${sort} q=${q}`).toEqual({ ...tokenRead, Query: queries, BatchGetItem: batchGets });
          expect(usage.rounds, `${path} sort=${sort} q=${q}`).toBe(2);
        }
      }
    }
  });

  it("q, matches beyond two pages: two round trips in every sort (views, votes and active walk the list's leading entries)", async () => {
    const word = unique('many').toLowerCase();
    // Posts the tests before featured are no longer fresh: the featured list holds no candidate.
    api.clock.advance(FRESH_MS + 1000);
    for (let i = 0; i < 8; i++) await newPost({ title: `Many ${word} ${i}` });
    await api.streams!.caughtUp();
    // The posts just written are fresh entries too: read in the same BatchGetItem as the others.
    for (const sort of ['newest', 'featured', 'views', 'votes', 'active']) {
      const usage = await calls.usage(async () => {
        const response = await alice.api.get('/posts', { query: { q: word, sort, page_size: '2' } });
        expect(response.status).toBe(200);
        expect(response.body).toHaveLength(sort === 'featured' ? 0 : 2);
      });
      // No featured post matches (the featured list's entries, read beside the postings, say so):
      // that page is empty after the first round trip.
      const leading = ['views', 'votes', 'active', 'featured'].includes(sort) ? 1 : 0;
      expect(usage.calls, sort).toEqual({ GetItem: 1, Query: 2 + leading, ...(sort === 'featured' ? {} : { BatchGetItem: 1 }) });
      expect(usage.rounds, sort).toBe(sort === 'featured' ? 1 : 2);
    }
  }, 60_000);

  it("q finding a post renamed more than FRESH_MS ago: its kept words' postings name the old slug, so it is found through its `mine` entry (two more round trips); a draft is left out when read", async () => {
    const word = unique('moved').toLowerCase();
    const post = await newPost({ title: `Moved ${word}`, description: 'sanderling' });
    const draft = await newPost({ title: `Unfinished ${word}`, publish: 'false' });
    await api.streams!.caughtUp();
    const renamed = await alice.api.put(`/posts/detail/${post.slug}`, { json: { title: `Shifted ${word}` } });
    expect(renamed.status).toBe(200);
    const slug = (renamed.body as { slug: string }).slug;
    await api.streams!.caughtUp();
    api.clock.advance(FRESH_MS + 1000);
    const usage = await calls.usage(async () => {
      const response = await bob.api.get('/posts', { query: { q: `sanderling ${word}` } });
      expect(response.body.map((p: { slug: string }) => p.slug)).toEqual([slug]);
    });
    // The token || the words' postings and the fresh entries; the post at its old slug (gone); its
    // `mine` entry; the post at its slug.
    expect(usage.calls).toEqual({ GetItem: 1, Query: 3, BatchGetItem: 3 });
    expect(usage.rounds).toBe(4);
    // The title's new word was written with the new slug: two round trips.
    const direct = await calls.usage(async () => {
      const response = await bob.api.get('/posts', { query: { q: `shifted ${word}` } });
      expect(response.body.map((p: { slug: string }) => p.slug)).toEqual([slug]);
    });
    expect(direct.rounds).toBe(2);
    // The draft shares the marker: read, it is left out of the public list, not out of its author's.
    expect((await bob.api.get('/posts', { query: { q: word } })).body.map((p: { slug: string }) => p.slug)).toEqual([slug]);
    const own = await alice.api.get('/posts/me', { query: { q: `unfinished ${word}` } });
    expect(own.body.map((p: { slug: string }) => p.slug)).toEqual([draft.slug]);
  }, 60_000);

  it('an empty page 1 is one round trip: the token and tag read || the entries Query', async () => {
    const tag = (await alice.api.post('/tags', { form: { title: unique('Empty') } })).body;
    const usage = await calls.usage(() => alice.api.get(`/posts/tagged/${tag.slug}`));
    expect(usage.calls).toEqual({ BatchGetItem: 1, Query: 1 });
    expect(usage.rounds).toBe(1);
  });

  it('following the Link costs what page 1 costs; page N by number adds the skip', async () => {
    for (let i = 0; i < 5; i++) await newPost();
    const first = await alice.api.get('/posts', { query: { page_size: '2' } });
    const next = /^<([^>]+)>; rel="next"$/.exec(first.headers.get('link') ?? '')![1]!;
    expect(await counted(() => alice.api.get(next))).toEqual({ status: 200, total: 3, byCommand: { Query: 1, BatchGetItem: 2 } });
    // Page 2 by number: one keys-only Query finds where the page starts, then the page's Query.
    expect(await counted(() => alice.api.get('/posts', { query: { page_size: '2', page: '2' } }))).toEqual({
      status: 200,
      total: 4,
      byCommand: { Query: 2, BatchGetItem: 2 },
    });
  });

  it('post detail, first or repeat visit: one BatchGetItem, then one transaction', async () => {
    const post = await newPost();
    const expected = { status: 200, total: 2, byCommand: { BatchGetItem: 1, TransactWriteItems: 1 } };
    expect(await counted(() => bob.api.get(`/posts/detail/${post.slug}`))).toEqual(expected);
    expect(await counted(() => bob.api.get(`/posts/detail/${post.slug}`))).toEqual(expected);
    expect(await counted(() => bob.api.get('/posts/detail/no-such-post'))).toEqual({ status: 404, total: 1, byCommand: { BatchGetItem: 1 } });
  });

  it('related posts: the token and post read, then one Query per tag of the post in parallel, then one BatchGetItem of the chosen posts: three round trips', async () => {
    const tags = [unique('RelA'), unique('RelB'), unique('RelC')];
    for (let i = 0; i < 7; i++) await newPost({ tags: tags.slice(0, 1 + (i % 3)).join(', ') });
    const post = await newPost({ tags: tags.join(', ') });
    const usage = await calls.usage(() => bob.api.get(`/posts/detail/${post.slug}/related`));
    expect(usage.calls).toEqual({ BatchGetItem: 2, Query: 3 });
    expect(usage.rounds).toBe(3);
    // Without tags: the post alone; an unknown post: the token and the (absent) post.
    const untagged = await newPost();
    const alone = await calls.usage(() => bob.api.get(`/posts/detail/${untagged.slug}/related`));
    expect([alone.calls, alone.rounds]).toEqual([{ BatchGetItem: 1 }, 1]);
    expect(await counted(() => bob.api.get('/posts/detail/no-such-post/related'))).toEqual({ status: 404, total: 1, byCommand: { BatchGetItem: 1 } });
  });

  it("related posts cost what the post's tags bound, not the site: a tag of 25 posts and of 50 cost the same", async () => {
    const tag = unique('RelSize');
    const post = await newPost({ tags: tag });
    for (let i = 0; i < 25; i++) await newPost({ tags: tag });
    const smaller = await calls.usage(() => bob.api.get(`/posts/detail/${post.slug}/related`));
    for (let i = 0; i < 25; i++) await newPost({ tags: tag });
    const larger = await calls.usage(() => bob.api.get(`/posts/detail/${post.slug}/related`));
    expect([smaller.calls, smaller.rounds]).toEqual([{ BatchGetItem: 2, Query: 1 }, 3]);
    expect([larger.calls, larger.rounds, larger.rcu]).toEqual([smaller.calls, smaller.rounds, smaller.rcu]);
    expect(larger.rcu).toBeGreaterThan(0);
  }, 60_000);
});

describe('feed', () => {
  // The newest removal's Query runs beside the whole list read, so the meter, which groups calls
  // that overlap in time, may see one round trip or two; the posts' read waits for the entries only.
  it('GET /feed: the entries Query || the newest removal Query, then one BatchGetItem of the posts; ?tag= reads the tag in the first round trip too', async () => {
    const tag = unique('Fed');
    const post = await newPost({ tags: tag });
    const tagSlug = (await alice.api.get('/tags', { query: { q: tag } })).body[0].slug;
    const feed = (query: Record<string, string> = {}, headers: Record<string, string> = {}) =>
      api.client().get('/feed', { query, headers: { Accept: 'application/rss+xml', ...headers } });
    const all = await calls.usage(async () => expect((await feed()).text).toContain(post.slug));
    expect(all.calls).toEqual({ Query: 2, BatchGetItem: 1 });
    expect(all.rounds).toBeLessThanOrEqual(2);
    const tagged = await calls.usage(async () => expect((await feed({ tag: tagSlug })).text).toContain(post.slug));
    expect(tagged.calls).toEqual({ Query: 2, BatchGetItem: 2 });
    expect(tagged.rounds).toBeLessThanOrEqual(2);
    // A 304 builds the document to compare its ETag: the same reads. An unknown tag: one round trip.
    const etag = (await feed()).headers.get('etag')!;
    const notModified = await calls.usage(async () => expect((await feed({}, { 'If-None-Match': etag })).status).toBe(304));
    expect(notModified.calls).toEqual({ Query: 2, BatchGetItem: 1 });
    // An unknown tag answers 404 after the tag's read, without reading any post.
    const unknown = await calls.usage(async () => expect((await feed({ tag: 'no-such-tag' })).status).toBe(404));
    expect(unknown.calls.BatchGetItem).toBe(1);
    expect(unknown.rounds).toBe(1);
  });
});

describe('writes', () => {
  it('profile update: one BatchGetItem, one transaction (the update and the token check)', async () => {
    expect(await counted(() => alice.api.put(`/users/detail/${alice.username}`, { form: { location: 'Lisbon' } }))).toEqual({
      status: 200,
      total: 2,
      byCommand: { BatchGetItem: 1, TransactWriteItems: 1 },
    });
    expect((await counted(() => alice.api.put(`/users/detail/${bob.username}`, { form: { location: 'x' } }))).total).toBe(1);
  });

  it('tag create: the token read (with the title claim and slug candidates for a derived slug), then one transaction', async () => {
    const derived = await calls.usage(async () => expect((await alice.api.post('/tags', { form: { title: unique('Tag') } })).status).toBe(201));
    expect([derived.calls, derived.rounds]).toEqual([{ BatchGetItem: 1, TransactWriteItems: 1 }, 2]);
    expect(await counted(() => alice.api.post('/tags', { form: { title: unique('Tag'), slug: unique('given') } }))).toEqual({
      status: 201,
      total: 2,
      byCommand: { GetItem: 1, TransactWriteItems: 1 },
    });
  });

  // A free slug is claimed by the transaction itself; a slug ticket (UpdateItem) is taken only
  // after a claim was lost to a concurrent write (test/api/slugs.test.ts races them).
  it('post create with a free slug, with known and new tags: one BatchGetItem, then one transaction: two round trips', async () => {
    const known = unique('Known');
    await newPost({ tags: known });
    const create = (tags: string) =>
      calls.usage(async () =>
        expect((await alice.api.post('/posts', { form: { title: unique('P '), description: 'd', tags, publish: 'true' } })).status).toBe(201),
      );
    for (const tags of [known, `${known}, ${unique('New')}, ${unique('New')}`]) {
      const usage = await create(tags);
      expect([usage.calls, usage.rounds], tags).toEqual([{ BatchGetItem: 1, TransactWriteItems: 1 }, 2]);
    }
    // A title whose base is taken: its next free candidate is claimed the same way.
    const taken = await newPost();
    const again = await calls.usage(async () =>
      expect((await alice.api.post('/posts', { form: { title: taken.title, description: 'd' } })).body.slug).toBe(`${taken.slug}-1`),
    );
    expect([again.calls, again.rounds]).toEqual([{ BatchGetItem: 1, TransactWriteItems: 1 }, 2]);
  });

  it('post update, with a rename to a free slug and a tag change: one BatchGetItem, then one transaction: two round trips', async () => {
    const post = await newPost({ tags: unique('Old') });
    const renamed = await calls.usage(async () =>
      expect((await alice.api.put(`/posts/detail/${post.slug}`, { form: { title: unique('Renamed '), tags: unique('Other'), publish: 'false' } })).status).toBe(
        200,
      ),
    );
    expect([renamed.calls, renamed.rounds]).toEqual([{ BatchGetItem: 1, TransactWriteItems: 1 }, 2]);
    // An edit that keeps the slug.
    const kept = await newPost();
    expect(await counted(() => alice.api.put(`/posts/detail/${kept.slug}`, { form: { description: 'edited' } }))).toEqual({
      status: 200,
      total: 2,
      byCommand: { BatchGetItem: 1, TransactWriteItems: 1 },
    });
    expect((await counted(() => bob.api.put(`/posts/detail/${post.slug}`, { form: { title: 'x' } }))).total).toBe(1);
  });

  it('post delete, viewed or not: one BatchGetItem, one transaction (the stream consumer removes the visits)', async () => {
    const expected = { status: 204, total: 2, byCommand: { BatchGetItem: 1, TransactWriteItems: 1 } };
    const unseen = await newPost();
    expect(await counted(() => alice.api.delete(`/posts/detail/${unseen.slug}`))).toEqual(expected);
    const seen = await newPost();
    await bob.api.get(`/posts/detail/${seen.slug}`);
    expect(await counted(() => alice.api.delete(`/posts/detail/${seen.slug}`))).toEqual(expected);
  });
});

describe('votes and favorites', () => {
  it('vote: GET is the token and post read, then the vote; a first vote or the same again is the read, then the transaction alongside a read of the vote; a switch, one more transaction', async () => {
    const post = await newPost();
    const path = `/posts/detail/${post.slug}/vote`;
    const twoRounds = { BatchGetItem: 1, GetItem: 1 };
    expect(await counted(() => bob.api.get(path))).toEqual({ status: 200, total: 2, byCommand: twoRounds });
    const vote = (value: string) => calls.usage(async () => expect((await bob.api.post(path, { form: { vote: value } })).status).toBe(200));
    const first = await vote('up');
    expect([first.calls, first.rounds]).toEqual([{ BatchGetItem: 1, TransactWriteItems: 1, GetItem: 1 }, 2]);
    const again = await vote('up');
    expect([again.calls, again.rounds]).toEqual([{ BatchGetItem: 1, TransactWriteItems: 1, GetItem: 1 }, 2]);
    const other = await vote('down');
    expect([other.calls, other.rounds]).toEqual([{ BatchGetItem: 1, TransactWriteItems: 2, GetItem: 1 }, 3]);
    const remove = () => calls.usage(async () => expect((await bob.api.delete(path)).status).toBe(200));
    // A down vote: the removal of an up vote is cancelled, the read beside it shows down, then its removal.
    const down = await remove();
    expect([down.calls, down.rounds]).toEqual([{ BatchGetItem: 1, TransactWriteItems: 2, GetItem: 1 }, 3]);
    const none = await remove();
    expect([none.calls, none.rounds]).toEqual([{ BatchGetItem: 1, TransactWriteItems: 1, GetItem: 1 }, 2]);
    await vote('up');
    const up = await remove();
    expect([up.calls, up.rounds]).toEqual([{ BatchGetItem: 1, TransactWriteItems: 1, GetItem: 1 }, 2]);
    expect(await counted(() => alice.api.post(path, { form: { vote: 'up' } }))).toEqual({ status: 403, total: 1, byCommand: { BatchGetItem: 1 } });
    expect(await counted(() => bob.api.post('/posts/detail/no-such-post/vote', { form: { vote: 'up' } }))).toEqual({
      status: 404,
      total: 1,
      byCommand: { BatchGetItem: 1 },
    });
  });

  it('favorite: GET is the token and post read, then the favorite; POST and DELETE, new or repeated, one transaction after the read', async () => {
    const post = await newPost();
    const path = `/posts/detail/${post.slug}/favorite`;
    const write = { status: 200, total: 2, byCommand: { BatchGetItem: 1, TransactWriteItems: 1 } };
    expect(await counted(() => bob.api.get(path))).toEqual({ status: 200, total: 2, byCommand: { BatchGetItem: 1, GetItem: 1 } });
    for (let i = 0; i < 2; i++) expect(await counted(() => bob.api.post(path))).toEqual(write);
    for (let i = 0; i < 2; i++) expect(await counted(() => bob.api.delete(path))).toEqual(write);
  });

  it("a user's favorites, page 1 and after a Link: the token and profile read || the favorites Query, then one BatchGetItem of the posts", async () => {
    for (let i = 0; i < 3; i++) await bob.api.post(`/posts/detail/${(await newPost()).slug}/favorite`);
    const path = `/users/detail/${bob.username}/favorites`;
    let next: string | undefined;
    const first = await calls.usage(async () => {
      const response = await alice.api.get(path, { query: { page_size: '2' } });
      expect(response.status).toBe(200);
      expect(response.body).toHaveLength(2);
      next = /^<([^>]+)>; rel="next"$/.exec(response.headers.get('link') ?? '')?.[1];
    });
    expect(first.calls).toEqual({ BatchGetItem: 2, Query: 1 });
    expect(first.rounds).toBe(2);
    const second = await calls.usage(async () => expect((await alice.api.get(next!)).status).toBe(200));
    expect(second.calls).toEqual({ BatchGetItem: 2, Query: 1 });
    expect(second.rounds).toBe(2);
    expect(await counted(() => alice.api.get('/users/detail/no-such-user/favorites'))).toMatchObject({ status: 404 });
  });
});

describe('comments (v1.3 §6)', () => {
  const commentsOf = (slug: string) => `/posts/detail/${slug}/comments`;
  async function comments(slug: string, count: number, parent?: string): Promise<{ id: string; modified: string }[]> {
    const made = [];
    for (let i = 0; i < count; i++) {
      const response = await bob.api.post(commentsOf(slug), { json: { body: `Comment ${i} ${'words '.repeat(20)}`, ...(parent ? { parent } : {}) } });
      expect(response.status, response.text).toBe(201);
      made.push(response.body as { id: string; modified: string });
    }
    return made;
  }

  it("a page of threads: at most 2 round trips, capacity growing with the comments returned, never with the post's", async () => {
    const { slug } = await newPost();
    const [first] = await comments(slug, 5);
    await comments(slug, 5, first!.id);
    const few = await calls.usage(() => alice.api.get(commentsOf(slug)));
    expect(few.rounds).toBeLessThanOrEqual(2);
    // 20 threads a page: more returned, more read; the one Query reads at most 20 × 4 + 1 items
    // (threads with the copies of their first replies), so past 81 items the post's size is no cost.
    await comments(slug, 85);
    const page = await calls.usage(() => alice.api.get(commentsOf(slug)));
    expect(page.rounds).toBeLessThanOrEqual(2);
    expect(page.calls).toEqual(few.calls);
    expect(page.rcu).toBeGreaterThan(few.rcu);
    // 40 more threads and 30 more replies on the first: page 1 still holds 20 threads and 3 replies.
    await comments(slug, 40);
    await comments(slug, 30, first!.id);
    const larger = await calls.usage(() => alice.api.get(commentsOf(slug)));
    expect([larger.calls, larger.rounds, larger.rcu]).toEqual([page.calls, page.rounds, page.rcu]);
    // The Link's next page costs what page 1 does.
    const response = await alice.api.get(commentsOf(slug));
    const next = response.headers.get('link')!.slice(1, response.headers.get('link')!.indexOf('>'));
    const second = await calls.usage(() => alice.api.get(next));
    expect(second.rounds).toBeLessThanOrEqual(2);
    expect(second.calls).toEqual(page.calls);
  }, 120_000);

  it("a page of replies, one comment, a user's comments, /reports: at most 2 round trips", async () => {
    const { slug } = await newPost();
    const [thread] = await comments(slug, 1);
    // A page of replies reads at most page_size + 1 (51) of them: past that, the thread's size is no cost.
    await comments(slug, 55, thread!.id);
    const replies = await calls.usage(() => alice.api.get(`/comments/detail/${thread!.id}/replies`));
    await comments(slug, 30, thread!.id);
    const moreReplies = await calls.usage(() => alice.api.get(`/comments/detail/${thread!.id}/replies`));
    expect(replies.rounds).toBeLessThanOrEqual(2);
    expect([moreReplies.calls, moreReplies.rounds, moreReplies.rcu]).toEqual([replies.calls, replies.rounds, replies.rcu]);
    expect((await calls.usage(() => alice.api.get(`/comments/detail/${thread!.id}`))).rounds).toBeLessThanOrEqual(2);
    expect((await calls.usage(() => alice.api.get(`/users/detail/${bob.username}/comments`))).rounds).toBeLessThanOrEqual(2);
    const moderator = await api.user('moderator');
    await setModerator(moderator.username, true);
    expect((await calls.usage(() => moderator.api.get('/reports'))).rounds).toBeLessThanOrEqual(2);
  }, 120_000);

  it('create, a reply too, rate check included: 2 round trips (the read, then one transaction), the same on a thread of 1 and of 50 replies', async () => {
    const { slug } = await newPost();
    const top = await counted(() => bob.api.post(commentsOf(slug), { json: { body: 'Top' } }));
    expect(top).toEqual({ status: 201, total: 2, byCommand: { BatchGetItem: 1, TransactWriteItems: 1 } });
    const [thread] = await comments(slug, 1);
    const firstReply = await calls.usage(() => bob.api.post(commentsOf(slug), { json: { body: 'Reply', parent: thread!.id } }));
    await comments(slug, 50, thread!.id);
    const lateReply = await calls.usage(() => bob.api.post(commentsOf(slug), { json: { body: 'Reply', parent: thread!.id } }));
    expect([firstReply.calls, firstReply.rounds]).toEqual([{ BatchGetItem: 1, TransactWriteItems: 1 }, 2]);
    expect([lateReply.calls, lateReply.rounds]).toEqual([firstReply.calls, firstReply.rounds]);
    // A reply beyond the first three writes no preview copy: fewer write units, never more.
    expect(lateReply.wcu).toBeLessThanOrEqual(firstReply.wcu);
  }, 120_000);

  it('edit, hide, delete, report, resolve, suspend: at most 3 round trips each', async () => {
    const moderator = await api.user('moderator');
    await setModerator(moderator.username, true);
    const { slug } = await newPost();
    const [one, two, three] = await comments(slug, 3);
    const rounds = async (send: () => Promise<{ status: number }>, status: number) => {
      let answered = 0;
      const usage = await calls.usage(async () => {
        answered = (await send()).status;
      });
      expect(answered).toBe(status);
      return usage.rounds;
    };
    expect(await rounds(() => bob.api.put(`/comments/detail/${one!.id}`, { json: { body: 'Edited', modified: one!.modified } }), 200)).toBeLessThanOrEqual(3);
    expect(await rounds(() => alice.api.put(`/comments/detail/${two!.id}`, { json: { status: 'hidden' } }), 200)).toBeLessThanOrEqual(3);
    expect(await rounds(() => bob.api.delete(`/comments/detail/${three!.id}`), 204)).toBeLessThanOrEqual(3);
    const reporter = await api.user('reporter');
    expect(await rounds(() => reporter.api.post(`/comments/detail/${one!.id}/report`, { json: { reason: 'spam' } }), 201)).toBeLessThanOrEqual(3);
    const report = await reporter.api.get(`/comments/detail/${one!.id}/report`);
    expect(await rounds(() => moderator.api.post(`/reports/detail/${report.body.id}/resolve`, { json: { action: 'dismiss' } }), 200)).toBeLessThanOrEqual(3);
    // Suspending: 3 round trips, and the sweep of late tokens after (as the revocation's).
    expect(await rounds(() => moderator.api.post(`/users/detail/${reporter.username}/suspension`), 200)).toBeLessThanOrEqual(5);
  }, 120_000);
});
