import { describe, expect, it } from 'vitest';
import { keys } from '#lib/db/keys.ts';
import { unique } from '../support/api.ts';
import { COMMENT_KEYS, comment, commentPath, commentsPath, makeModerator, publishedPost, repliesPath, userCommentsPath, walk } from '../support/comments.ts';
import { useApi } from '../support/fixture.ts';
import { eventually, partition, postIdOf } from '../support/reactions.ts';
import { invariantProblems, settledTable } from './reliability/table.ts';

// Comments and replies (docs/api.md, Comments): the routes of v1.3 §1–3 as a client sees them.
// The rate limits are the subject of comment-limits.test.ts: here they are out of the way.

const api = useApi({ users: ['alice', 'bob', 'carol', 'mod'], apiEnvironment: { COMMENTS_PER_MINUTE: '1000', COMMENTS_PER_DAY: '100000' } });
const { alice, bob, carol, mod } = api.users;

const totalComments = async (slug: string) => (await alice.api.get(`/posts/detail/${slug}`)).body.total_comments as number;

describe('creating comments and replies', () => {
  it('a top-level comment: 201 with the contract keys in order; counted on the post', async () => {
    const post = await publishedPost(alice);
    const response = await bob.api.post(commentsPath(post.slug), { form: { body: '  Nice post!  ' } });
    expect(response.status).toBe(201);
    expect(Object.keys(response.body)).toEqual(COMMENT_KEYS);
    expect(response.body).toMatchObject({
      post: post.slug,
      author: bob.username,
      body: 'Nice post!',
      edited: false,
      status: 'published',
      hidden_by: null,
      parent: null,
      in_reply_to: null,
      total_replies: 0,
    });
    expect(response.body.id).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(response.body.modified).toBe(response.body.created);
    expect(await totalComments(post.slug)).toBe(1);
    const detail = await carol.api.get(commentPath(response.body.id));
    expect([detail.status, detail.body]).toEqual([200, response.body]);
  });

  it('a reply names its thread as parent and the comment answered as in_reply_to; counts on thread and post', async () => {
    const post = await publishedPost(alice);
    const thread = await comment(bob.api, post.slug, 'Question?');
    const answer = await comment(alice.api, post.slug, 'Answer.', thread.id);
    expect(answer).toMatchObject({ parent: thread.id, in_reply_to: thread.id, total_replies: 0 });
    const again = await comment(carol.api, post.slug, 'Follow-up.', answer.id);
    expect(again).toMatchObject({ parent: thread.id, in_reply_to: answer.id });
    expect((await bob.api.get(commentPath(thread.id))).body.total_replies).toBe(2);
    expect(await totalComments(post.slug)).toBe(3);
  });

  it('checks in the contract order: 404, draft 403, locked 403, body 400, parent 400s, one error each', async () => {
    const draft = await publishedPost(alice, { publish: 'false' });
    expect((await bob.api.post(commentsPath(draft.slug), { json: {} })).status).toBe(404);
    expect((await bob.api.post(commentsPath('no-such-post'), { json: { body: 'x' } })).body).toEqual({ detail: 'Not found.' });
    const own = await alice.api.post(commentsPath(draft.slug), { json: {} });
    expect([own.status, own.body]).toEqual([403, { detail: 'Drafts cannot be commented on.' }]);
    const locked = await publishedPost(alice, { comments_locked: 'true' });
    const refused = await mod.api.post(commentsPath(locked.slug), { json: { body: '' } });
    expect([refused.status, refused.body]).toEqual([403, { detail: 'Comments on this post are locked.' }]);
    const post = await publishedPost(alice);
    const cases: [unknown, Record<string, string[]>][] = [
      [{}, { body: ['This field is required.'] }],
      [{ body: '   ', parent: 'garbage' }, { body: ['This field may not be blank.'] }],
      [{ body: 'x'.repeat(10_001) }, { body: ['Ensure this field has no more than 10000 characters.'] }],
      [{ body: null }, { body: ['This field may not be null.'] }],
      [{ body: ['a'] }, { body: ['Not a valid string.'] }],
      [{ body: 'ok', parent: 'x'.repeat(100_000) }, { parent: ['No such comment on this post.'] }],
      [{ body: 'ok', parent: 'AAAAAAAAAAAAAAAAAAAAAA' }, { parent: ['No such comment on this post.'] }],
      [{ body: 'ok', parent: 12 }, { parent: ['No such comment on this post.'] }],
    ];
    for (const [json, errors] of cases) {
      const answer = await bob.api.post(commentsPath(post.slug), { json });
      expect([answer.status, answer.body], JSON.stringify(json).slice(0, 80)).toEqual([400, errors]);
    }
    // 10,000 code points of four bytes each are a valid body.
    expect((await bob.api.post(commentsPath(post.slug), { json: { body: '😀'.repeat(10_000) } })).status).toBe(201);
    const elsewhere = await comment(bob.api, (await publishedPost(alice)).slug, 'On another post');
    expect((await bob.api.post(commentsPath(post.slug), { json: { body: 'x', parent: elsewhere.id } })).body).toEqual({
      parent: ['No such comment on this post.'],
    });
    const blank = await bob.api.post(commentsPath(post.slug), { form: { body: 'top', parent: '' } });
    expect([blank.status, blank.body.parent]).toEqual([201, null]);
  });

  it('a hidden comment or a placeholder cannot be replied to; a deleted one is no comment of the post', async () => {
    const post = await publishedPost(alice);
    const hidden = await comment(bob.api, post.slug, 'To hide');
    expect((await alice.api.put(commentPath(hidden.id), { json: { status: 'hidden' } })).status).toBe(200);
    expect((await carol.api.post(commentsPath(post.slug), { json: { body: 'x', parent: hidden.id } })).body).toEqual({
      parent: ['This comment cannot be replied to.'],
    });
    const thread = await comment(bob.api, post.slug, 'Thread');
    await comment(carol.api, post.slug, 'Reply', thread.id);
    expect((await bob.api.delete(commentPath(thread.id))).status).toBe(204);
    expect((await carol.api.post(commentsPath(post.slug), { json: { body: 'x', parent: thread.id } })).body).toEqual({
      parent: ['This comment cannot be replied to.'],
    });
    const gone = await comment(bob.api, post.slug, 'Gone');
    expect((await bob.api.delete(commentPath(gone.id))).status).toBe(204);
    expect((await carol.api.post(commentsPath(post.slug), { json: { body: 'x', parent: gone.id } })).body).toEqual({
      parent: ['No such comment on this post.'],
    });
  });
});

describe('threads and replies pages', () => {
  it('threads oldest first, each with its first 3 replies; replies oldest first with X-Total-Count', async () => {
    const post = await publishedPost(alice);
    const threads = [];
    for (let i = 0; i < 3; i++) threads.push(await comment(bob.api, post.slug, `Thread ${i}`));
    const replies = [];
    for (let i = 0; i < 5; i++) replies.push(await comment(carol.api, post.slug, `Reply ${i}`, threads[1]!.id));
    const page = await alice.api.get(commentsPath(post.slug));
    expect(page.status).toBe(200);
    expect(page.headers.get('x-total-count')).toBeNull();
    expect(page.body.map((t: { body: string }) => t.body)).toEqual(['Thread 0', 'Thread 1', 'Thread 2']);
    expect(Object.keys(page.body[0])).toEqual([...COMMENT_KEYS, 'replies']);
    expect(page.body[1].total_replies).toBe(5);
    expect(page.body[1].replies.map((r: { body: string }) => r.body)).toEqual(['Reply 0', 'Reply 1', 'Reply 2']);
    expect(page.body[1].replies[0]).toEqual(replies[0]);
    const all = await bob.api.get(repliesPath(threads[1]!.id));
    expect(all.headers.get('x-total-count')).toBe('5');
    expect(all.body).toEqual(replies);
    // A reply's id is no thread.
    expect((await bob.api.get(repliesPath(replies[0]!.id))).status).toBe(404);
    const walked = await walk(bob.api, repliesPath(threads[1]!.id), { page_size: '2' });
    expect(walked.items).toEqual(replies);
    expect(walked.pages).toEqual([2, 2, 1]);
  });

  it('a deleted first reply gives its place to the next; deleting all replies of a placeholder removes it', async () => {
    const post = await publishedPost(alice);
    const thread = await comment(bob.api, post.slug, 'Thread');
    const replies = [];
    for (let i = 0; i < 4; i++) replies.push(await comment(carol.api, post.slug, `Reply ${i}`, thread.id));
    expect((await carol.api.delete(commentPath(replies[1]!.id))).status).toBe(204);
    let page = await alice.api.get(commentsPath(post.slug));
    expect(page.body[0].replies.map((r: { body: string }) => r.body)).toEqual(['Reply 0', 'Reply 2', 'Reply 3']);
    expect(page.body[0].total_replies).toBe(3);
    expect((await bob.api.delete(commentPath(thread.id))).status).toBe(204);
    page = await alice.api.get(commentsPath(post.slug));
    expect(page.body[0]).toMatchObject({ author: null, body: '', status: 'deleted', total_replies: 3 });
    expect((await bob.api.put(commentPath(thread.id), { json: { body: 'x' } })).status).toBe(404);
    expect((await bob.api.delete(commentPath(thread.id))).status).toBe(404);
    for (const reply of [replies[0]!, replies[2]!, replies[3]!]) expect((await carol.api.delete(commentPath(reply.id))).status).toBe(204);
    expect((await alice.api.get(commentsPath(post.slug))).body).toEqual([]);
    expect((await alice.api.get(commentPath(thread.id))).status).toBe(404);
    expect(await totalComments(post.slug)).toBe(0);
    expect(invariantProblems(await settledTable(api.table))).toEqual([]);
  });

  it('pages of threads by cursor and by number never skip or repeat; new threads land on the last page', async () => {
    const post = await publishedPost(alice);
    const made = [];
    for (let i = 0; i < 7; i++) made.push((await comment(bob.api, post.slug, `T${i}`)).id);
    await comment(carol.api, post.slug, 'R', made[2]);
    const walked = await walk(alice.api, commentsPath(post.slug), { page_size: '3' });
    expect(walked.items.map((t: { id: string }) => t.id)).toEqual(made);
    expect(walked.pages).toEqual([3, 3, 1]);
    const second = await alice.api.get(commentsPath(post.slug), { query: { page: '2', page_size: '3' } });
    expect(second.body.map((t: { id: string }) => t.id)).toEqual(made.slice(3, 6));
    const refused: Record<string, string>[] = [{ page: '4', page_size: '3' }, { page: '0' }, { cursor: 'garbage' }];
    for (const query of refused) {
      expect((await alice.api.get(commentsPath(post.slug), { query })).body, JSON.stringify(query)).toEqual({ detail: 'Invalid page.' });
    }
    const first = await alice.api.get(commentsPath(post.slug), { query: { page_size: '6' } });
    const last = await comment(bob.api, post.slug, 'Newest');
    const next = new URL(first.headers.get('link')!.slice(1, -'>; rel="next"'.length));
    const rest = await alice.api.get(`${next.pathname.replace('/api/v1', '')}${next.search}`);
    expect(rest.body.map((t: { id: string }) => t.id)).toEqual([made[6], last.id]);
  });
});

describe('who sees what', () => {
  it('hidden by the post author: whole to its author, the post author and moderators; a placeholder to others', async () => {
    await makeModerator(mod);
    const post = await publishedPost(alice);
    const hidden = await comment(bob.api, post.slug, 'Rude');
    const answer = await alice.api.put(commentPath(hidden.id), { json: { status: 'hidden' } });
    expect(answer.body).toMatchObject({ status: 'hidden', hidden_by: 'post_author', body: 'Rude' });
    for (const viewer of [bob, alice, mod]) expect((await viewer.api.get(commentPath(hidden.id))).body.body, viewer.username).toBe('Rude');
    expect((await carol.api.get(commentPath(hidden.id))).body).toMatchObject({ author: null, body: '', status: 'hidden', hidden_by: 'post_author' });
    expect(await totalComments(post.slug)).toBe(0);
    // A moderator's hiding makes it theirs: the post's author then sees a placeholder and cannot show it.
    expect((await mod.api.put(commentPath(hidden.id), { json: { status: 'hidden' } })).body.hidden_by).toBe('moderator');
    expect((await alice.api.get(commentPath(hidden.id))).body.body).toBe('');
    expect((await alice.api.put(commentPath(hidden.id), { json: { status: 'published' } })).body).toEqual({
      detail: 'Only a moderator can unhide this comment.',
    });
    expect((await mod.api.put(commentPath(hidden.id), { json: { status: 'published' } })).body).toMatchObject({ status: 'published', hidden_by: null });
    expect(await totalComments(post.slug)).toBe(1);
  });

  it("a user's list: newest first, published ones, hidden ones to themselves and moderators, none on a draft", async () => {
    await makeModerator(mod);
    const user = await api.user('lister');
    const post = await publishedPost(alice);
    const draft = await publishedPost(alice, { publish: 'false' });
    const first = await comment(user.api, post.slug, 'first');
    const second = await comment(user.api, post.slug, 'second');
    expect((await alice.api.put(commentPath(first.id), { json: { status: 'hidden' } })).status).toBe(200);
    const ids = (body: { id: string }[]) => body.map((c) => c.id);
    expect(ids((await carol.api.get(userCommentsPath(user.username))).body)).toEqual([second.id]);
    expect(ids((await user.api.get(userCommentsPath(user.username))).body)).toEqual([second.id, first.id]);
    expect(ids((await mod.api.get(userCommentsPath(user.username))).body)).toEqual([second.id, first.id]);
    expect((await alice.api.put(`/posts/detail/${post.slug}`, { json: { publish: false } })).status).toBe(200);
    expect((await carol.api.get(userCommentsPath(user.username))).body).toEqual([]);
    expect(ids((await alice.api.get(userCommentsPath(user.username))).body)).toEqual([second.id]);
    expect((await carol.api.get(userCommentsPath(unique('nobody')))).status).toBe(404);
    expect(draft).toBeDefined();
  });

  it('on a draft every comment route is 404 to others, moderators too; its author reads and gets 403 on writes', async () => {
    await makeModerator(mod);
    const post = await publishedPost(alice);
    const thread = await comment(bob.api, post.slug, 'Before unpublishing');
    expect((await alice.api.put(`/posts/detail/${post.slug}`, { json: { publish: false } })).status).toBe(200);
    for (const viewer of [bob, carol, mod]) {
      for (const answer of [
        await viewer.api.get(commentsPath(post.slug)),
        await viewer.api.get(commentPath(thread.id)),
        await viewer.api.get(repliesPath(thread.id)),
        await viewer.api.put(commentPath(thread.id), { json: { body: 'edit' } }),
        await viewer.api.delete(commentPath(thread.id)),
      ]) {
        expect(answer.status, viewer.username).toBe(404);
      }
    }
    expect((await alice.api.get(commentsPath(post.slug))).body).toHaveLength(1);
    expect((await alice.api.delete(commentPath(thread.id))).body).toEqual({ detail: 'Drafts cannot be commented on.' });
    expect((await alice.api.put(`/posts/detail/${post.slug}`, { json: { publish: true } })).status).toBe(200);
    expect(await totalComments(post.slug)).toBe(1);
  });
});

describe('editing, hiding, deleting', () => {
  it('its author edits: modified and edited follow the body; the same text changes nothing; a stale modified is 409', async () => {
    const post = await publishedPost(alice);
    const made = await comment(bob.api, post.slug, 'First take');
    const same = await bob.api.put(commentPath(made.id), { json: { body: ' First take ' } });
    expect([same.status, same.body]).toEqual([200, made]);
    const edited = await bob.api.put(commentPath(made.id), { json: { body: 'Second take', modified: made.modified } });
    expect(edited.body).toMatchObject({ body: 'Second take', edited: true, created: made.created });
    expect(edited.body.modified > made.modified).toBe(true);
    const stale = await bob.api.put(commentPath(made.id), { json: { body: 'Third', modified: made.modified } });
    expect([stale.status, stale.body]).toEqual([409, { detail: 'The comment was changed since you read it.' }]);
    // `modified` is compared only with a body.
    expect((await alice.api.put(commentPath(made.id), { json: { status: 'hidden', modified: made.modified } })).status).toBe(200);
    expect((await carol.api.put(commentPath(made.id), { json: { body: 'x' } })).body).toEqual({ detail: 'You are not owner of this comment!' });
    expect((await carol.api.put(commentPath(made.id), { json: { status: 'hidden' } })).body).toEqual({ detail: 'You cannot hide or unhide this comment.' });
    expect((await carol.api.put(commentPath(made.id), { json: {} })).body).toEqual({ detail: 'You are not owner of this comment!' });
    expect((await alice.api.put(commentPath(made.id), { json: {} })).status).toBe(200);
    const badStatus = await alice.api.put(commentPath(made.id), { json: { status: 'deleted' } });
    expect([badStatus.status, badStatus.body]).toEqual([400, { status: ['"deleted" is not a valid choice.'] }]);
    expect((await bob.api.put(commentPath(made.id), { json: { body: '' } })).body).toEqual({ body: ['This field may not be blank.'] });
    expect((await bob.api.put(commentPath('not-an-id'), { json: { body: 'x' } })).status).toBe(404);
  });

  it('a lock stops edits but not hiding or deleting', async () => {
    const post = await publishedPost(alice);
    const made = await comment(bob.api, post.slug, 'Before the lock');
    expect((await alice.api.put(`/posts/detail/${post.slug}`, { json: { comments_locked: true } })).body.comments_locked).toBe(true);
    expect((await bob.api.put(commentPath(made.id), { json: { body: 'after' } })).body).toEqual({ detail: 'Comments on this post are locked.' });
    expect((await alice.api.put(commentPath(made.id), { json: { status: 'hidden' } })).status).toBe(200);
    expect((await bob.api.delete(commentPath(made.id))).status).toBe(204);
    expect(await totalComments(post.slug)).toBe(0);
  });

  it("a moderator deletes anyone's comment; others get 403", async () => {
    await makeModerator(mod);
    const post = await publishedPost(alice);
    const made = await comment(bob.api, post.slug, 'Spam');
    expect((await alice.api.delete(commentPath(made.id))).body).toEqual({ detail: 'You are not owner of this comment!' });
    expect((await mod.api.delete(commentPath(made.id))).status).toBe(204);
    expect((await bob.api.get(commentPath(made.id))).status).toBe(404);
  });
});

describe("a post's deletion", () => {
  it('takes its comments with it; a new post of that slug has none', async () => {
    const post = await publishedPost(alice);
    const thread = await comment(bob.api, post.slug, 'Thread');
    for (let i = 0; i < 4; i++) await comment(carol.api, post.slug, `Reply ${i}`, thread.id);
    const postId = await postIdOf(post.slug);
    expect((await alice.api.delete(`/posts/detail/${post.slug}`)).status).toBe(204);
    expect((await bob.api.get(commentPath(thread.id))).status).toBe(404);
    expect((await bob.api.get(userCommentsPath(bob.username))).body.map((c: { id: string }) => c.id)).not.toContain(thread.id);
    await eventually(async () => (await partition(keys.threadsOf(postId))).length === 0 && (await partition(keys.repliesOf(thread.id))).length === 0);
    expect(await partition(keys.commentHead(thread.id).PK)).toEqual([]);
    const again = await createPostWithTitle(String(post.title));
    expect(again.slug).toBe(post.slug);
    expect((await alice.api.get(commentsPath(again.slug))).body).toEqual([]);
    expect(again.total_comments).toBe(0);
  });
});

async function createPostWithTitle(title: string) {
  const response = await alice.api.post('/posts', { form: { title, description: 'x', publish: 'true' } });
  expect(response.status).toBe(201);
  return response.body;
}
