import { beforeAll, describe, expect, it } from 'vitest';
import { nowMs } from '#lib/time.ts';
import { BUNDLES, type TestUser } from '../support/api.ts';
import { comment, commentPath, commentsPath, publishedPost } from '../support/comments.ts';
import { useApi } from '../support/fixture.ts';
import { invariantProblems, settledTable } from './reliability/table.ts';

// The limits and races of v1.3 §6 (docs/api.md, Comments: limits): the comments a user may
// create per UTC minute and per UTC day, answered 429 with Retry-After, and the counts that stay
// exact when writes race. The windows are fixed UTC ones: the tests move the clock (lib/time.ts)
// to just past a window's start, so that no boundary falls inside them.

const api = useApi({ users: ['alice', 'bob', 'carol'] });
const { alice, bob, carol } = api.users;
const crowd: TestUser[] = [];

beforeAll(async () => {
  crowd.push(...(await Promise.all(Array.from({ length: 20 }, () => api.user('crowd')))));
});

const MINUTE = 60_000;
const DAY = 86_400_000;
/** Moves the clock to just past the start of the next window of `ms`. */
const toNextWindow = (ms: number) => api.clock.advance(ms - (nowMs() % ms) + 50);
const throttled = (seconds: number) => ({ detail: `Request was throttled. Expected available in ${seconds} second${seconds === 1 ? '' : 's'}.` });
const totalComments = async (slug: string) => (await alice.api.get(`/posts/detail/${slug}`)).body.total_comments as number;

describe.skipIf(BUNDLES)('rate limits (COMMENTS_PER_MINUTE, COMMENTS_PER_DAY)', () => {
  it('10 a minute: the 11th is 429 with Retry-After the rest of the minute; the next minute takes more', async () => {
    const { slug } = await publishedPost(alice);
    toNextWindow(MINUTE);
    for (let i = 0; i < 10; i++) await comment(bob.api, slug, `Comment ${i}`);
    api.clock.advance(20_000);
    const refused = await bob.api.post(commentsPath(slug), { json: { body: 'One too many' } });
    expect(refused.status).toBe(429);
    const wait = Number(refused.headers.get('retry-after'));
    // 40 s of the minute left (the requests took a few of them).
    expect(wait).toBeGreaterThanOrEqual(30);
    expect(wait).toBeLessThanOrEqual(40);
    expect(refused.body).toEqual(throttled(wait));
    // Refused, it wrote nothing and counted nothing; others are not limited by bob's comments.
    expect(await totalComments(slug)).toBe(10);
    expect((await carol.api.post(commentsPath(slug), { json: { body: 'Mine' } })).status).toBe(201);
    api.clock.advance(wait * 1000);
    expect((await bob.api.post(commentsPath(slug), { json: { body: 'A new minute' } })).status).toBe(201);
  });

  it('100 a UTC day (COMMENTS_PER_DAY, here 12): Retry-After runs to midnight UTC', async () => {
    const previous = process.env.COMMENTS_PER_DAY;
    process.env.COMMENTS_PER_DAY = '12';
    try {
      const { slug } = await publishedPost(alice);
      toNextWindow(DAY);
      for (let i = 0; i < 10; i++) await comment(carol.api, slug, `Morning ${i}`);
      toNextWindow(MINUTE);
      for (let i = 0; i < 2; i++) await comment(carol.api, slug, `Later ${i}`);
      toNextWindow(MINUTE);
      const refused = await carol.api.post(commentsPath(slug), { json: { body: 'Over the day' } });
      expect(refused.status).toBe(429);
      const wait = Number(refused.headers.get('retry-after'));
      const left = Math.ceil((DAY - (nowMs() % DAY)) / 1000);
      expect(Math.abs(wait - left)).toBeLessThanOrEqual(2);
      expect(refused.body).toEqual(throttled(wait));
      toNextWindow(DAY);
      expect((await carol.api.post(commentsPath(slug), { json: { body: 'A new day' } })).status).toBe(201);
    } finally {
      if (previous === undefined) delete process.env.COMMENTS_PER_DAY;
      else process.env.COMMENTS_PER_DAY = previous;
    }
  });

  it("one user's 12 creates at once: ten 201 and two 429, counted exactly", async () => {
    const { slug } = await publishedPost(alice);
    const user = await api.user('burst');
    toNextWindow(MINUTE);
    const responses = await Promise.all(Array.from({ length: 12 }, (_, i) => user.api.post(commentsPath(slug), { json: { body: `Burst ${i}` } })));
    const statuses = responses.map((response) => response.status).sort();
    expect(statuses).toEqual([...Array(10).fill(201), 429, 429]);
    expect(await totalComments(slug)).toBe(10);
  });
});

describe('exact under races, never a 5xx', () => {
  it('20 comments at once on one post: twenty 201, total_comments +20', async () => {
    const { slug } = await publishedPost(alice);
    const responses = await Promise.all(crowd.map((user, i) => user.api.post(commentsPath(slug), { json: { body: `Together ${i}` } })));
    expect(responses.map((response) => response.status)).toEqual(Array(20).fill(201));
    expect(await totalComments(slug)).toBe(20);
    const listed = await alice.api.get(commentsPath(slug));
    expect(listed.body).toHaveLength(20);
  });

  it('20 replies at once to one thread: total_replies +20, the first 3 shown with it', async () => {
    const { slug } = await publishedPost(alice);
    const thread = await comment(alice.api, slug, 'Ask me anything');
    const responses = await Promise.all(crowd.map((user, i) => user.api.post(commentsPath(slug), { json: { body: `Reply ${i}`, parent: thread.id } })));
    expect(responses.map((response) => response.status)).toEqual(Array(20).fill(201));
    expect((await bob.api.get(commentPath(thread.id))).body.total_replies).toBe(20);
    expect(await totalComments(slug)).toBe(21);
    const [listed] = (await bob.api.get(commentsPath(slug))).body;
    const created = responses
      .map((response) => response.body)
      .sort((a, b) => (a.created === b.created ? (a.id < b.id ? -1 : 1) : a.created < b.created ? -1 : 1));
    expect(listed.replies.map((reply: { id: string }) => reply.id)).toEqual(created.slice(0, 3).map((reply) => reply.id));
    expect(invariantProblems(await settledTable(api.table))).toEqual([]);
  });

  it("a reply racing its parent's deletion ends with both (a placeholder keeps the thread) or a 400, never an orphan", async () => {
    const { slug } = await publishedPost(alice);
    for (let round = 0; round < 6; round++) {
      const thread = await comment(bob.api, slug, `Thread ${round}`);
      const [deleted, reply] = await Promise.all([
        bob.api.delete(commentPath(thread.id)),
        carol.api.post(commentsPath(slug), { json: { body: 'Wait!', parent: thread.id } }),
      ]);
      expect(deleted.status).toBe(204);
      if (reply.status === 201) {
        expect((await alice.api.get(commentPath(reply.body.id))).status).toBe(200);
        expect((await alice.api.get(commentPath(thread.id))).body).toMatchObject({ status: 'deleted', author: null, body: '', total_replies: 1 });
        expect((await carol.api.delete(commentPath(reply.body.id))).status).toBe(204);
      } else {
        expect([reply.status, reply.body]).toEqual([400, { parent: ['No such comment on this post.'] }]);
      }
      expect((await alice.api.get(commentPath(thread.id))).status).toBe(404);
    }
    expect(await totalComments(slug)).toBe(0);
    expect(invariantProblems(await settledTable(api.table))).toEqual([]);
  });
});

describe('hostile input: the contract 4xx, nothing written', () => {
  it('bodies past 10,000 code points, nulls, arrays; huge, foreign and malformed parents', async () => {
    // A user of its own: the suites above made comments as carol.
    const writer = await api.user('hostile');
    const { slug } = await publishedPost(alice);
    const other = await publishedPost(alice);
    const foreign = await comment(bob.api, other.slug, 'On another post');
    const own = await comment(bob.api, slug, 'Here');
    const before = await totalComments(slug);
    const TOO_LONG = { body: ['Ensure this field has no more than 10000 characters.'] };
    const NO_PARENT = { parent: ['No such comment on this post.'] };
    const cases: [unknown, unknown][] = [
      [{ body: 'x'.repeat(10_001) }, TOO_LONG],
      [{ body: '🎉'.repeat(10_001) }, TOO_LONG],
      [{ body: null }, { body: ['This field may not be null.'] }],
      [{ body: ['a', 'b'] }, { body: ['Not a valid string.'] }],
      [{ body: { text: 'x' } }, { body: ['Not a valid string.'] }],
      [{ body: '   ' }, { body: ['This field may not be blank.'] }],
      [{}, { body: ['This field is required.'] }],
      [{ body: 'ok', parent: '9'.repeat(100_000) }, NO_PARENT],
      [{ body: 'ok', parent: 123456789 }, NO_PARENT],
      [{ body: 'ok', parent: [own.id] }, NO_PARENT],
      [{ body: 'ok', parent: { id: own.id } }, NO_PARENT],
      [{ body: 'ok', parent: foreign.id }, NO_PARENT],
      [{ body: 'ok', parent: 'A'.repeat(22) }, NO_PARENT],
      [{ body: 'ok', parent: `${own.id}#x` }, NO_PARENT],
    ];
    for (const [json, errors] of cases) {
      const refused = await writer.api.post(commentsPath(slug), { json });
      expect([refused.status, refused.body], JSON.stringify(json).slice(0, 80)).toEqual([400, errors]);
    }
    expect(await totalComments(slug)).toBe(before);
    expect((await writer.api.get(`/users/detail/${writer.username}/comments`)).body).toEqual([]);
    // 10,000 code points is the most: four bytes each, still one comment.
    const longest = await writer.api.post(commentsPath(slug), { json: { body: '🎉'.repeat(10_000) } });
    expect(longest.status).toBe(201);
    const edit = await writer.api.put(commentPath(longest.body.id), { json: { body: 'x'.repeat(10_001), modified: longest.body.modified } });
    expect([edit.status, edit.body]).toEqual([400, TOO_LONG]);
    expect((await writer.api.get(commentPath(longest.body.id))).body.body).toBe('🎉'.repeat(10_000));
    expect(invariantProblems(await settledTable(api.table))).toEqual([]);
  });

  it('path values that can be no id are 404; a foreign post in the path does not reach its comments', async () => {
    for (const id of ['x', 'A'.repeat(21), 'A'.repeat(23), '%00', 'A'.repeat(21) + '.', 'a'.repeat(3000)]) {
      expect((await bob.api.get(commentPath(id))).status, id).toBe(404);
      expect((await bob.api.put(commentPath(id), { json: { body: 'x' } })).status, id).toBe(404);
      expect((await bob.api.delete(commentPath(id))).status, id).toBe(404);
      expect((await bob.api.get(`${commentPath(id)}/replies`)).status, id).toBe(404);
    }
    const { slug } = await publishedPost(alice);
    const thread = await comment(bob.api, slug, 'Thread');
    const reply = await comment(carol.api, slug, 'Reply', thread.id);
    // A reply's id has no replies page.
    expect((await bob.api.get(`${commentPath(reply.id)}/replies`)).status).toBe(404);
  });
});
