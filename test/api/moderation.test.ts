import { describe, expect, it } from 'vitest';
import { run } from '../../scripts/admin/run.ts';
import { BUNDLES } from '../support/api.ts';
import {
  REPORT_KEYS,
  comment,
  commentPath,
  commentReportPath,
  commentsPath,
  makeModerator,
  postReportPath,
  publishedPost,
  resolvePath,
  suspensionPath,
  userCommentsPath,
  walk,
} from '../support/comments.ts';
import { useApi } from '../support/fixture.ts';
import { invariantProblems, settledTable } from './reliability/table.ts';

// Reports, moderators and suspension (docs/api.md, Reports and Moderators): v1.3 §4–5 as a
// client sees them. The admin CLI's own commands run as a process in admin-cli.test.ts; here
// `set-moderator` and `restore-post` run in this process (scripts/admin/run.ts) on the same table.

const api = useApi({
  users: ['alice', 'bob', 'carol', 'dave', 'mod'],
  apiEnvironment: { COMMENTS_PER_MINUTE: '1000', COMMENTS_PER_DAY: '100000' },
});
const { alice, bob, carol, dave, mod } = api.users;

const ONLY_MODERATORS = { detail: 'Only moderators may do this.' };
const post = async (slug: string) => (await alice.api.get(`/posts/detail/${slug}`)).body as Record<string, any>;

describe('reports', () => {
  it("a comment's report: 201 with the contract keys, 200 the same report again, GET the caller's own only", async () => {
    await makeModerator(mod);
    const { slug } = await publishedPost(alice);
    const made = await comment(bob.api, slug, 'Buy cheap watches');
    const filed = await carol.api.post(commentReportPath(made.id), { json: { reason: 'spam', note: '  ' } });
    expect(filed.status, filed.text).toBe(201);
    expect(Object.keys(filed.body)).toEqual(REPORT_KEYS);
    expect(filed.body).toMatchObject({
      reason: 'spam',
      note: null,
      reporter: carol.username,
      status: 'open',
      resolved: null,
      resolved_by: null,
      open_reports: 1,
    });
    expect(filed.body.target).toEqual({ type: 'comment', id: made.id, post: slug, author: bob.username, body: 'Buy cheap watches', status: 'published' });
    expect(Object.keys(filed.body.target)).toEqual(['type', 'id', 'post', 'author', 'body', 'status']);
    const again = await carol.api.post(commentReportPath(made.id), { json: { reason: 'abuse', note: 'changed my mind' } });
    expect([again.status, again.body]).toEqual([200, filed.body]);
    expect((await carol.api.get(commentReportPath(made.id))).body).toEqual(filed.body);
    expect((await dave.api.get(commentReportPath(made.id))).status).toBe(404);
    // Nobody reports their own.
    const own = await bob.api.post(commentReportPath(made.id), { json: { reason: 'spam' } });
    expect([own.status, own.body]).toEqual([403, { detail: 'You cannot report your own comment.' }]);
    const ownPost = await alice.api.post(postReportPath(slug), { json: { reason: 'spam' } });
    expect([ownPost.status, ownPost.body]).toEqual([403, { detail: 'You cannot report your own post.' }]);
  });

  it('checks reason and note with the contract messages, and writes nothing when refused', async () => {
    const { slug } = await publishedPost(alice);
    const cases: [unknown, unknown][] = [
      [{}, { reason: ['This field is required.'] }],
      [{ reason: 'rude' }, { reason: ['"rude" is not a valid choice.'] }],
      [{ reason: 'other', note: 'n'.repeat(501) }, { note: ['Ensure this field has no more than 500 characters.'] }],
    ];
    for (const [body, errors] of cases) {
      const refused = await bob.api.post(postReportPath(slug), { json: body });
      expect([refused.status, refused.body], JSON.stringify(body)).toEqual([400, errors]);
    }
    expect((await bob.api.get(postReportPath(slug))).status).toBe(404);
    const ok = await bob.api.post(postReportPath(slug), { json: { reason: 'other', note: 'n'.repeat(500) } });
    expect(ok.status).toBe(201);
    expect(ok.body.target).toEqual({ type: 'post', slug, title: (await post(slug)).title, author: alice.username, publish: true });
  });

  it('three distinct users hide a published comment (hidden_by reports, counted out once); a dismiss brings it back', async () => {
    await makeModerator(mod);
    const { slug } = await publishedPost(alice);
    const made = await comment(bob.api, slug, 'Rude words');
    expect((await post(slug)).total_comments).toBe(1);
    // The three at once: one of them is the third, and it hides the comment once.
    const reports = await Promise.all([carol, dave, alice].map((user) => user.api.post(commentReportPath(made.id), { json: { reason: 'abuse' } })));
    expect(reports.map((r) => r.status)).toEqual([201, 201, 201]);
    const shown = await bob.api.get(commentPath(made.id));
    expect(shown.body).toMatchObject({ status: 'hidden', hidden_by: 'reports', author: bob.username, body: 'Rude words' });
    // Others see a placeholder.
    expect((await carol.api.get(commentPath(made.id))).body).toMatchObject({ status: 'hidden', author: null, body: '' });
    expect((await post(slug)).total_comments).toBe(0);
    // A comment not published is reported no more by someone new.
    const late = await mod.api.post(commentReportPath(made.id), { json: { reason: 'spam' } });
    expect([late.status, late.body]).toEqual([403, { detail: 'This comment cannot be reported.' }]);

    const listed = await walk(mod.api, '/reports');
    const entries = listed.items.filter((r: { target: { id?: string } }) => r.target.id === made.id);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ open_reports: 3, status: 'open' });
    const resolved = await mod.api.post(resolvePath(entries[0].id), { json: { action: 'dismiss' } });
    expect(resolved.status, resolved.text).toBe(200);
    expect(resolved.body).toMatchObject({ status: 'dismissed', resolved_by: mod.username, open_reports: 0 });
    expect(resolved.body.resolved).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}\+00:00$/);
    expect((await carol.api.get(commentPath(made.id))).body).toMatchObject({ status: 'published', hidden_by: null, body: 'Rude words' });
    expect((await post(slug)).total_comments).toBe(1);
    // Every report of the target is closed: none left to list, and each resolved already.
    expect((await walk(mod.api, '/reports')).items.some((r: { target: { id?: string } }) => r.target.id === made.id)).toBe(false);
    const twice = await mod.api.post(resolvePath(entries[0].id), { json: { action: 'remove' } });
    expect([twice.status, twice.body]).toEqual([409, { detail: 'This report is already resolved.' }]);
    expect((await carol.api.get(commentReportPath(made.id))).body).toMatchObject({ status: 'dismissed', resolved_by: mod.username });
    expect(invariantProblems(await settledTable(api.table))).toEqual([]);
  });

  it('only moderators list and resolve (403 after 401, before 404); the action is required and a choice', async () => {
    await makeModerator(mod);
    expect((await api.client().get('/reports')).status).toBe(401);
    const list = await bob.api.get('/reports');
    expect([list.status, list.body]).toEqual([403, ONLY_MODERATORS]);
    const unknown = await bob.api.post(resolvePath('A'.repeat(22)), { json: { action: 'dismiss' } });
    expect([unknown.status, unknown.body]).toEqual([403, ONLY_MODERATORS]);
    expect((await mod.api.post(resolvePath('A'.repeat(22)), { json: { action: 'dismiss' } })).status).toBe(404);
    expect((await mod.api.post(resolvePath('not-an-id'), { json: { action: 'dismiss' } })).status).toBe(404);
    const { slug } = await publishedPost(alice);
    const filed = await bob.api.post(postReportPath(slug), { json: { reason: 'off-topic' } });
    for (const [body, errors] of [
      [{}, { action: ['This field is required.'] }],
      [{ action: 'ban' }, { action: ['"ban" is not a valid choice.'] }],
    ] as const) {
      const refused = await mod.api.post(resolvePath(filed.body.id), { json: body });
      expect([refused.status, refused.body]).toEqual([400, errors]);
    }
    expect((await bob.api.get(postReportPath(slug))).body.status).toBe('open');
  });

  it('removing a post unpublishes it and keeps its author from publishing it until restore-post', async () => {
    await makeModerator(mod);
    const { slug } = await publishedPost(alice);
    const filed = await bob.api.post(postReportPath(slug), { json: { reason: 'spam' } });
    const removed = await mod.api.post(resolvePath(filed.body.id), { json: { action: 'remove' } });
    expect(removed.status, removed.text).toBe(200);
    expect(removed.body).toMatchObject({ status: 'removed', target: { type: 'post', slug, publish: false } });
    expect((await bob.api.get(`/posts/detail/${slug}`)).status).toBe(404);
    // Its author still edits it, but cannot publish it.
    expect((await alice.api.put(`/posts/detail/${slug}`, { form: { description: 'cleaned up' } })).status).toBe(200);
    const publish = await alice.api.put(`/posts/detail/${slug}`, { form: { publish: 'true' } });
    expect([publish.status, publish.body]).toEqual([403, { detail: 'A moderator removed this post.' }]);
    expect(await run(['restore-post', '--slug', slug])).toContain('restored');
    expect((await post(slug)).publish).toBe(false);
    expect((await alice.api.put(`/posts/detail/${slug}`, { form: { publish: 'true' } })).status).toBe(200);
    expect((await bob.api.get(`/posts/detail/${slug}`)).status).toBe(200);
    expect(await run(['restore-post', '--slug', slug])).toContain('not removed');
    await expect(run(['restore-post', '--slug', 'no-such-post-at-all'])).rejects.toThrow('There is no post "no-such-post-at-all".');
    expect(invariantProblems(await settledTable(api.table))).toEqual([]);
  });

  it("a deleted comment's reports go with it, from /reports at once", async () => {
    await makeModerator(mod);
    const { slug } = await publishedPost(alice);
    const made = await comment(bob.api, slug, 'Soon gone');
    expect((await carol.api.post(commentReportPath(made.id), { json: { reason: 'spam' } })).status).toBe(201);
    expect((await walk(mod.api, '/reports')).items.some((r: { target: { id?: string } }) => r.target.id === made.id)).toBe(true);
    expect((await bob.api.delete(commentPath(made.id))).status).toBe(204);
    expect((await walk(mod.api, '/reports')).items.some((r: { target: { id?: string } }) => r.target.id === made.id)).toBe(false);
    expect((await carol.api.get(commentReportPath(made.id))).status).toBe(404);
  });
});

describe('moderators', () => {
  it('set-moderator shows on the profile and GET /auth, for a new login at once and for a held token too; --off undoes it', async () => {
    const user = await api.user('newmod');
    expect(await run(['set-moderator', '--username', user.username])).toBe(`"${user.username}" is a moderator.`);
    expect((await alice.api.get(`/users/detail/${user.username}`)).body.is_moderator).toBe(true);
    const auth = await user.api.get('/auth');
    expect(Object.keys(auth.body)).toEqual(['id', 'token', 'username', 'is_moderator']);
    expect(auth.body.is_moderator).toBe(true);
    expect((await user.api.get('/reports')).status).toBe(200);
    const fresh = await api.client().post('/login', { json: { username: user.username, password: user.password } });
    expect((await api.client(fresh.body.token).get('/reports')).status).toBe(200);
    expect(await run(['set-moderator', '--username', user.username, '--off'])).toBe(`"${user.username}" is no longer a moderator.`);
    expect((await user.api.get('/reports')).status).toBe(403);
    await expect(run(['set-moderator', '--username', 'nobody-of-that-name'])).rejects.toThrow();
  });

  it("may lock comments on and feature another's post, with no other field (else 403); featuring a draft is 400", async () => {
    await makeModerator(mod);
    const { slug } = await publishedPost(alice);
    const path = `/posts/detail/${slug}`;
    const before = await post(slug);
    const locked = await mod.api.put(path, { json: { comments_locked: true, is_featured: 'true' } });
    expect(locked.status, locked.text).toBe(200);
    expect(locked.body).toMatchObject({ comments_locked: true, is_featured: true, modified: before.modified, author: alice.username });
    const mixed = await mod.api.put(path, { json: { comments_locked: false, title: 'Mine now' } });
    expect([mixed.status, mixed.body]).toEqual([403, { detail: 'You are not owner of this post!' }]);
    const bad = await mod.api.put(path, { json: { comments_locked: 'perhaps' } });
    expect([bad.status, bad.body]).toEqual([400, { comments_locked: ['Must be a valid boolean.'] }]);
    // Others: is_featured stays ignored, comments_locked is the author's.
    expect((await alice.api.put(path, { json: { is_featured: false, comments_locked: false } })).body).toMatchObject({
      is_featured: true,
      comments_locked: false,
    });
    expect((await bob.api.put(path, { json: { comments_locked: true } })).status).toBe(403);
    const draft = await publishedPost(alice, { publish: 'false' });
    // A moderator sees no draft: 404 before anything else.
    expect((await mod.api.put(`/posts/detail/${draft.slug}`, { json: { is_featured: true } })).status).toBe(404);
    const own = await mod.api.post('/posts', { json: { title: 'A moderator draft', description: 'x', is_featured: true } });
    expect([own.status, own.body]).toEqual([400, { is_featured: ['Only a published post can be featured.'] }]);
    expect((await alice.api.get(`/users/detail/${alice.username}`)).body.total_featured_posts).toBeGreaterThanOrEqual(1);
    expect(invariantProblems(await settledTable(api.table))).toEqual([]);
  });

  it("hide: the post's author hides and unhides what they hid; a moderator's hide is theirs to undo", async () => {
    await makeModerator(mod);
    const { slug } = await publishedPost(alice);
    const made = await comment(bob.api, slug, 'Off topic');
    const hidden = await alice.api.put(commentPath(made.id), { json: { status: 'hidden' } });
    expect(hidden.body).toMatchObject({ status: 'hidden', hidden_by: 'post_author' });
    expect((await post(slug)).total_comments).toBe(0);
    expect((await mod.api.put(commentPath(made.id), { json: { status: 'hidden' } })).body).toMatchObject({ hidden_by: 'moderator' });
    const unhide = await alice.api.put(commentPath(made.id), { json: { status: 'published' } });
    expect([unhide.status, unhide.body]).toEqual([403, { detail: 'Only a moderator can unhide this comment.' }]);
    const other = await carol.api.put(commentPath(made.id), { json: { status: 'published' } });
    expect([other.status, other.body]).toEqual([403, { detail: 'You cannot hide or unhide this comment.' }]);
    const bad = await mod.api.put(commentPath(made.id), { json: { status: 'deleted' } });
    expect([bad.status, bad.body]).toEqual([400, { status: ['"deleted" is not a valid choice.'] }]);
    expect((await mod.api.put(commentPath(made.id), { json: { status: 'published' } })).body).toMatchObject({ status: 'published', hidden_by: null });
    expect((await post(slug)).total_comments).toBe(1);
  });
});

describe('suspension', () => {
  it('a moderator suspends and reinstates a user, idempotently; their comments stay with the username', async () => {
    await makeModerator(mod);
    const user = await api.user('suspended');
    const { slug } = await publishedPost(alice);
    const made = await comment(user.api, slug, 'Still here later');
    expect((await mod.api.get(suspensionPath(user.username))).body).toEqual({ suspended: false });
    for (let i = 0; i < 2; i++) {
      const suspended = await mod.api.post(suspensionPath(user.username));
      expect([suspended.status, suspended.body]).toEqual([200, { suspended: true }]);
    }
    expect((await user.api.get('/auth')).status).toBe(401);
    expect((await mod.api.get(suspensionPath(user.username))).body).toEqual({ suspended: true });
    expect((await bob.api.get(commentPath(made.id))).body).toMatchObject({ author: user.username, body: 'Still here later' });
    expect((await api.client().post('/login', { json: { username: user.username, password: user.password } })).status).toBe(400);
    for (let i = 0; i < 2; i++) expect((await mod.api.delete(suspensionPath(user.username))).body).toEqual({ suspended: false });
    expect((await api.client().post('/login', { json: { username: user.username, password: user.password } })).status).toBe(200);
    expect(invariantProblems(await settledTable(api.table))).toEqual([]);
  });

  it('refuses others (403 after 401, before 404), a moderator as the target, oneself included; an unknown user is 404', async () => {
    await makeModerator(mod);
    expect((await api.client().post(suspensionPath(bob.username))).status).toBe(401);
    for (const request of [
      bob.api.get(suspensionPath(carol.username)),
      bob.api.post(suspensionPath('nobody-at-all')),
      bob.api.delete(suspensionPath(carol.username)),
    ]) {
      const refused = await request;
      expect([refused.status, refused.body]).toEqual([403, ONLY_MODERATORS]);
    }
    expect((await mod.api.post(suspensionPath('nobody-at-all'))).status).toBe(404);
    const self = await mod.api.post(suspensionPath(mod.username));
    expect([self.status, self.body]).toEqual([403, { detail: 'A moderator cannot be suspended.' }]);
    expect((await mod.api.delete(suspensionPath(mod.username))).status).toBe(403);
    expect((await mod.api.get(suspensionPath(mod.username))).body).toEqual({ suspended: false });
    expect((await mod.api.get('/auth')).status).toBe(200);
  });
});

describe("a user's comments", () => {
  it('lists published ones newest first; hidden ones to themselves and moderators only', async () => {
    await makeModerator(mod);
    const user = await api.user('lister');
    const { slug } = await publishedPost(alice);
    const first = await comment(user.api, slug, 'First');
    const second = await comment(user.api, slug, 'Second');
    expect((await alice.api.put(commentPath(first.id), { json: { status: 'hidden' } })).status).toBe(200);
    const ids = async (client: typeof bob.api) => (await walk(client, userCommentsPath(user.username))).items.map((c: { id: string }) => c.id);
    expect(await ids(bob.api)).toEqual([second.id]);
    expect(await ids(user.api)).toEqual([second.id, first.id]);
    expect(await ids(mod.api)).toEqual([second.id, first.id]);
    expect((await bob.api.get(userCommentsPath('nobody-at-all'))).status).toBe(404);
    expect((await bob.api.get(commentsPath(slug))).status).toBe(200);
  });
});

describe.skipIf(BUNDLES)('settings', () => {
  it('REPORTS_TO_HIDE sets how many distinct reports hide a comment', async () => {
    const previous = process.env.REPORTS_TO_HIDE;
    process.env.REPORTS_TO_HIDE = '1';
    try {
      const { slug } = await publishedPost(alice);
      const made = await comment(bob.api, slug, 'One report is enough');
      expect((await carol.api.post(commentReportPath(made.id), { json: { reason: 'spam' } })).body.target).toMatchObject({ status: 'hidden' });
      expect((await post(slug)).total_comments).toBe(0);
    } finally {
      if (previous === undefined) delete process.env.REPORTS_TO_HIDE;
      else process.env.REPORTS_TO_HIDE = previous;
    }
  });
});
