import { DynamoDBClient, GetItemCommand } from '@aws-sdk/client-dynamodb';
import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { setModerator } from '#lib/auth/moderators.ts';
import { newToken, newTokenItem } from '#lib/auth/tokens.ts';
import { searchTableOf } from '#lib/config.ts';
import { batchPut } from '#lib/db/batch.ts';
import { db } from '#lib/db/client.ts';
import { keys } from '#lib/db/keys.ts';
import { FRESH_LIMIT } from '#lib/lists/search.ts';
import { windowSize } from '#lib/search/find.ts';
import { isoTimestamp, nowMicros } from '#lib/time.ts';
import { afterAll, describe, expect, it } from 'vitest';
import { STREAM_READ_ACTIONS } from '../../infra/permissions.ts';
import { TABLE_STREAM_CONSUMER } from '../../infra/streams.ts';
import { ROUTES, FALLBACK_HANDLER, functionName } from '#lib/routes.ts';
import { deniedPermission, tableArn } from '../../scripts/local/iam-policy.ts';
import { BUNDLES, createPost, startApi, unique, type TestApi } from '../support/api.ts';
import { useApi } from '../support/fixture.ts';
import { rawRequest } from './reliability/raw-http.ts';

// Every function runs under its role's policy, through the IAM guard in front of DynamoDB Local
// (scripts/local/iam-guard.ts), in this file as in every other: a missing grant fails the route
// that needs it (and the stream consumer's record, see streams.test.ts). Here: the guard bites, and
// each function, the stream consumer included, is granted exactly what it uses.

const REGION = 'us-east-1';

describe('the IAM guard', () => {
  let api: TestApi;
  afterAll(() => api?.close());

  it('refuses a call its role does not allow, as DynamoDB does: the route answers 500 and nothing is written', async () => {
    // posts/detail as it was deployed before: GetItem and PutItem, but its code sends BatchGetItem.
    api = await startApi({ grants: { PostsDetail: { table: ['GetItem', 'PutItem'], indexes: [] } } });
    const alice = await api.user('alice');
    const post = await createPost(alice.api, { title: unique('Guarded'), description: 'x', publish: 'true' });

    const detail = await alice.api.get(`/posts/detail/${post.slug}`);
    expect(detail.status).toBe(500);
    expect(detail.body).toEqual({ detail: 'A server error occurred.' });
    expect(api.server.guard.denials).toContainEqual({
      identity: 'PostsDetail',
      operation: 'BatchGetItem',
      permission: { action: 'dynamodb:BatchGetItem', resource: tableArn(REGION, api.table) },
    });
    // The other functions keep their grants: the post is listed, unvisited.
    const list = await alice.api.get('/posts');
    expect(list.status).toBe(200);
    expect(list.body[0]).toMatchObject({ slug: post.slug, total_visitors: 0 });
  });

  it('refuses a Query on an index to a role granted the table only', async () => {
    await api.close();
    api = await startApi({ grants: { PostsList: { table: ['GetItem', 'Query'], indexes: [] } } });
    const bob = await api.user('bob');
    const list = await bob.api.get('/posts');
    expect(list.status).toBe(500);
    const denial = api.server.guard.denials.find((d) => d.identity === 'PostsList');
    expect(denial?.permission.action).toBe('dynamodb:Query');
    expect(denial?.permission.resource).toMatch(new RegExp(`:table/${api.table}/index/[A-Za-z0-9]+$`));
  });

  it('answers AccessDeniedException to a caller it does not know', async () => {
    const client = new DynamoDBClient({
      endpoint: api.server.guard.url,
      region: REGION,
      credentials: { accessKeyId: 'Stranger', secretAccessKey: 'x' },
      maxAttempts: 1,
    });
    const error = await client.send(new GetItemCommand({ TableName: api.table, Key: { PK: { S: 'x' }, SK: { S: 'x' } } })).catch((e: unknown) => e);
    client.destroy();
    expect((error as Error).name).toBe('AccessDeniedException');
    expect((error as Error).message).toContain('is not authorized to perform: dynamodb:GetItem');
  });
});

describe('least privilege', () => {
  const api = useApi();

  it('each function uses every permission its role grants: nothing more is granted than its code sends', async () => {
    const alice = await api.user('alice');
    const bob = await api.user('bob');
    const anonymous = api.client();
    // Every route, along every path that sends a distinct DynamoDB action.
    expect((await anonymous.post('/login', { json: { username: alice.username, password: 'wrong password' } })).status).toBe(400);
    expect((await alice.api.get('/auth')).status).toBe(200);
    expect((await alice.api.get('/users')).status).toBe(200);
    expect((await alice.api.get('/users', { query: { page: '2', page_size: '1' } })).status).toBe(200);
    // Refused before its own read (a body over the limit): the token alone.
    const origin = new URL(api.url).origin;
    const oversized = await rawRequest(origin, {
      method: 'GET',
      path: '/api/v1/users',
      body: 'x'.repeat(1024 * 1024 + 1),
      headers: { 'Content-Type': 'application/json', Authorization: `Token ${alice.token}` },
    });
    expect(oversized.status).toBe(413);
    expect((await alice.api.get(`/users/detail/${bob.username}`)).status).toBe(200);
    expect((await alice.api.put(`/users/detail/${alice.username}`, { form: { location: 'Lyon' } })).status).toBe(200);
    const tag = await alice.api.post('/tags', { form: { title: unique('Tag') } });
    expect(tag.status).toBe(201);
    expect((await alice.api.post('/tags', { form: { title: unique('Given'), slug: unique('given') } })).status).toBe(201);
    // Creates racing for one derived slug: the losers take tickets (UpdateItem).
    const stem = unique('Race');
    const racing = await Promise.all(
      ['', '!', '?', '+', '#', '*', '.', ' !', ' ?', ' +'].map((mark) => alice.api.post('/tags', { form: { title: `${stem}${mark}` } })),
    );
    expect(racing.map((response) => response.status)).toEqual(Array(10).fill(201));
    expect((await alice.api.get('/tags', { query: { q: 'tag' } })).status).toBe(200);
    expect((await alice.api.get(`/tags/detail/${tag.body.slug}`)).status).toBe(200);
    const title = unique('Post');
    const first = await createPost(alice.api, { title, description: 'x', tags: `${tag.body.title}, ${unique('New')}`, publish: 'true' });
    const second = await createPost(alice.api, { title, description: 'y', publish: 'true' });
    expect((await alice.api.get('/tags', { query: { page: '2', page_size: '1' } })).status).toBe(200);
    for (const sort of ['newest', 'featured', 'views', 'votes', 'active']) {
      expect((await bob.api.get('/posts', { query: { sort, q: 'x' } })).status).toBe(200);
    }
    const pageOne = await bob.api.get('/posts', { query: { page_size: '1' } });
    expect(pageOne.status).toBe(200);
    expect((await bob.api.get(pageOne.headers.get('link')!.slice(1, pageOne.headers.get('link')!.indexOf('>')))).status).toBe(200);
    expect((await bob.api.get('/posts', { query: { page: '2', page_size: '1' } })).status).toBe(200);
    expect((await bob.api.get(`/posts/detail/${first.slug}`)).status).toBe(200);
    expect((await bob.api.get(`/posts/detail/${first.slug}`)).status).toBe(200);
    // Related posts: the post, its tags' lists, then the neighbour's text and stats.
    const neighbour = await createPost(alice.api, { title: unique('Neighbour'), description: 'z', tags: tag.body.title, publish: 'true' });
    const related = await bob.api.get(`/posts/detail/${first.slug}/related`);
    expect(related.body.map((post: { slug: string }) => post.slug)).toEqual([neighbour.slug]);
    expect((await alice.api.get(`/posts/detail/${'x'.repeat(300)}/related`)).status).toBe(404);
    // The other lists, page 1 and by number, with and without q (q reads the posts in waves).
    for (const path of [`/posts/tagged/${tag.body.slug}`, `/posts/author/${alice.username}`, '/posts/me']) {
      expect((await alice.api.get(path, { query: { sort: 'views' } })).status, path).toBe(200);
      expect((await alice.api.get(path, { query: { sort: 'featured', q: 'x' } })).status, path).toBe(200);
      expect([200, 404], path).toContain((await alice.api.get(path, { query: { page: '2', page_size: '1' } })).status);
    }
    // A search by views whose word has more postings than its page reads, all newer than the posts
    // listed: whether those have the word is read from their own postings (BatchGetItem of the
    // search table). The postings are of posts that do not exist, as a search finds out. The newest
    // FRESH_LIMIT posts of a list are read whole instead (the index may not hold them yet): as many
    // newer posts push the first one out of them, onto its postings.
    await Promise.all(
      Array.from({ length: FRESH_LIMIT }, (_, i) =>
        createPost(alice.api, { title: unique(`Pushed ${i}`), description: 'x', tags: tag.body.title, publish: 'true' }),
      ),
    );
    const future = isoTimestamp(nowMicros() + 3_600_000_000);
    const crowded = Array.from({ length: windowSize(2) + 1 }, (_, i) => ({
      ...keys.posting('zq', future, `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`),
      slug: 'none',
      author: alice.username,
      author_id: alice.id,
      text_version: 1,
    }));
    await batchPut(crowded, searchTableOf(api.table));
    for (const path of ['/posts', `/posts/tagged/${tag.body.slug}`, `/posts/author/${alice.username}`, '/posts/me']) {
      expect((await alice.api.get(path, { query: { sort: 'views', q: 'x zq' } })).status, path).toBe(200);
    }
    const renamed = await alice.api.put(`/posts/detail/${second.slug}`, { form: { title: unique('Renamed'), tags: unique('Other') } });
    expect(renamed.status).toBe(200);
    expect((await alice.api.put(`/posts/detail/${renamed.body.slug}`, { form: { publish: 'false', tags: tag.body.title } })).status).toBe(200);
    // Failures before the handler's own read still look the token up (401 comes first).
    expect((await alice.api.post('/posts', { form: { title: '' } })).status).toBe(400);
    expect((await alice.api.put(`/posts/detail/${renamed.body.slug}`, { form: { title: '!!!' } })).status).toBe(400);
    expect((await alice.api.get(`/posts/detail/${'x'.repeat(300)}`)).status).toBe(404);
    expect((await alice.api.delete(`/posts/detail/${'x'.repeat(300)}`)).status).toBe(404);
    expect((await alice.api.put(`/posts/detail/${'x'.repeat(300)}`, { form: { title: 'x' } })).status).toBe(404);
    expect((await alice.api.put(`/users/detail/${'x'.repeat(300)}`, { form: { location: 'x' } })).status).toBe(404);
    expect((await alice.api.get(`/users/detail/${'x'.repeat(300)}`)).status).toBe(404);
    expect((await alice.api.get(`/tags/detail/${'x'.repeat(300)}`)).status).toBe(404);
    expect((await alice.api.get(`/posts/tagged/${'x'.repeat(300)}`)).status).toBe(404);
    expect((await alice.api.get(`/posts/author/${'x'.repeat(300)}`)).status).toBe(404);
    // Votes and favorites: first vote, switch, removal; favorite, unfavorite, favorite again (the
    // delete below then makes the stream consumer remove it and lower bob's profile count).
    const votePath = `/posts/detail/${first.slug}/vote`;
    const favoritePath = `/posts/detail/${first.slug}/favorite`;
    expect((await bob.api.get(votePath)).status).toBe(200);
    expect((await bob.api.post(votePath, { form: { vote: 'up' } })).status).toBe(200);
    expect((await bob.api.post(votePath, { form: { vote: 'down' } })).status).toBe(200);
    expect((await bob.api.delete(votePath)).status).toBe(200);
    expect((await bob.api.post(votePath, { form: { vote: 'up' } })).status).toBe(200);
    expect((await bob.api.get(favoritePath)).status).toBe(200);
    expect((await bob.api.post(favoritePath)).status).toBe(200);
    expect((await bob.api.delete(favoritePath)).status).toBe(200);
    expect((await bob.api.post(favoritePath)).status).toBe(200);
    expect((await alice.api.get(`/users/detail/${bob.username}/favorites`)).status).toBe(200);
    for (const path of [`/posts/detail/${'x'.repeat(300)}/vote`, `/posts/detail/${'x'.repeat(300)}/favorite`]) {
      expect((await alice.api.get(path)).status, path).toBe(404);
      expect((await alice.api.post(path, { form: { vote: 'up' } })).status, path).toBe(404);
      expect((await alice.api.delete(path)).status, path).toBe(404);
    }
    expect((await alice.api.get(`/users/detail/${'x'.repeat(300)}/favorites`)).status).toBe(404);
    // v1.3: comments, replies, reports and moderation, along each path that sends a distinct
    // action; the post's deletion below then makes the stream consumer remove its comments and
    // reports, and a reported comment's deletion its reports.
    const moderator = await api.user('moderator');
    await setModerator(moderator.username, true);
    const commentsPath = `/posts/detail/${first.slug}/comments`;
    const made = async (client: typeof alice.api, body: string, parent?: string) => {
      const response = await client.post(commentsPath, { json: { body, ...(parent ? { parent } : {}) } });
      expect(response.status, response.text).toBe(201);
      return response.body as { id: string; modified: string };
    };
    const thread = await made(bob.api, 'Thread');
    const replies: { id: string; modified: string }[] = [];
    for (let i = 0; i < 4; i++) replies.push(await made(alice.api, `Reply ${i}`, thread.id));
    const lone = await made(alice.api, 'Lone');
    expect((await bob.api.get(commentsPath)).status).toBe(200);
    expect((await bob.api.get(commentsPath, { query: { page: '2', page_size: '1' } })).status).toBe(200);
    expect((await bob.api.get(`/comments/detail/${thread.id}`)).status).toBe(200);
    expect((await bob.api.get(`/comments/detail/${thread.id}/replies`)).status).toBe(200);
    expect((await bob.api.get(`/users/detail/${alice.username}/comments`)).status).toBe(200);
    // Edits: a first reply's copy follows it (PutItem); hiding by the post's author.
    expect((await alice.api.put(`/comments/detail/${replies[0]!.id}`, { json: { body: 'Reply 0, edited', modified: replies[0]!.modified } })).status).toBe(200);
    expect((await alice.api.put(`/comments/detail/${lone.id}`, { json: { status: 'hidden' } })).status).toBe(200);
    // Reports: of a post, of a comment (three hide it), the caller's own read back.
    const reported = await createPost(alice.api, { title: unique('Reported'), description: 'r', publish: 'true' });
    const postReport = await bob.api.post(`/posts/detail/${reported.slug}/report`, { json: { reason: 'spam' } });
    expect(postReport.status, postReport.text).toBe(201);
    expect((await bob.api.get(`/posts/detail/${reported.slug}/report`)).status).toBe(200);
    for (const reporter of [bob, moderator, await api.user('reporter')]) {
      expect((await reporter.api.post(`/comments/detail/${replies[1]!.id}/report`, { json: { reason: 'abuse' } })).status).toBe(201);
    }
    expect((await bob.api.get(`/comments/detail/${replies[1]!.id}/report`)).status).toBe(200);
    expect((await bob.api.post(`/comments/detail/${thread.id}/report`, { json: { reason: 'other' } })).status).toBe(403);
    expect((await alice.api.post(`/comments/detail/${thread.id}/report`, { json: { reason: 'other' } })).status).toBe(201);
    const open = await moderator.api.get('/reports');
    expect(open.status).toBe(200);
    expect((await bob.api.get('/reports')).status).toBe(403);
    // The HEAD routes of the caller's reports, of the moderators' list and of a suspension.
    for (const [client, path] of [
      [bob.api, `/posts/detail/${reported.slug}/report`],
      [bob.api, `/comments/detail/${replies[1]!.id}/report`],
      [moderator.api, '/reports'],
      [moderator.api, `/users/detail/${bob.username}/suspension`],
    ] as const) {
      expect((await client.request('HEAD', path)).status, path).toBe(200);
    }
    const openOf = (predicate: (target: { type: string; id?: string; slug?: string }) => boolean) =>
      (open.body as { id: string; target: { type: string; id?: string; slug?: string } }[]).find((report) => predicate(report.target))!.id;
    expect((await moderator.api.post(`/reports/detail/${openOf((t) => t.id === replies[1]!.id)}/resolve`, { json: { action: 'dismiss' } })).status).toBe(200);
    expect((await moderator.api.post(`/reports/detail/${openOf((t) => t.id === thread.id)}/resolve`, { json: { action: 'remove' } })).status).toBe(200);
    expect((await moderator.api.post(`/reports/detail/${openOf((t) => t.type === 'post')}/resolve`, { json: { action: 'remove' } })).status).toBe(200);
    // Deletes: a first reply (the next one is copied in its place), then the thread kept as a placeholder.
    expect((await alice.api.delete(`/comments/detail/${replies[0]!.id}`)).status).toBe(204);
    expect((await moderator.api.delete(`/comments/detail/${thread.id}`)).status).toBe(204);
    // Suspension: of a user holding more tokens than one transaction takes.
    const suspended = await api.user('suspended');
    const heldTokens = Array.from({ length: 100 }, () => ({
      PutRequest: { Item: newTokenItem(newToken(1), { id: suspended.id, username: suspended.username }) },
    }));
    for (let start = 0; start < heldTokens.length; start += 25) {
      await db().send(new BatchWriteCommand({ RequestItems: { [api.table]: heldTokens.slice(start, start + 25) } }));
    }
    expect((await moderator.api.get(`/users/detail/${suspended.username}/suspension`)).status).toBe(200);
    expect((await moderator.api.post(`/users/detail/${suspended.username}/suspension`)).status).toBe(200);
    expect((await moderator.api.delete(`/users/detail/${suspended.username}/suspension`)).status).toBe(200);
    // Path values that can name nothing: the token alone (GetItem).
    const noId = 'x'.repeat(30);
    for (const path of [
      `/comments/detail/${noId}`,
      `/comments/detail/${noId}/replies`,
      `/comments/detail/${noId}/report`,
      `/posts/detail/${'x'.repeat(300)}/comments`,
      `/posts/detail/${'x'.repeat(300)}/report`,
    ]) {
      expect((await alice.api.get(path)).status, path).toBe(404);
    }
    for (const path of [`/posts/detail/${'x'.repeat(300)}/comments`, `/posts/detail/${'x'.repeat(300)}/report`, `/comments/detail/${noId}/report`]) {
      expect((await alice.api.post(path, { json: { body: 'x', reason: 'spam' } })).status, path).toBe(404);
    }
    expect((await alice.api.put(`/comments/detail/${noId}`, { json: { body: 'x' } })).status).toBe(404);
    expect((await alice.api.delete(`/comments/detail/${noId}`)).status).toBe(404);
    expect((await alice.api.get(`/users/detail/${'x'.repeat(300)}/comments`)).status).toBe(404);
    expect((await moderator.api.post(`/reports/detail/${noId}/resolve`, { json: { action: 'dismiss' } })).status).toBe(404);
    for (const method of ['get', 'post', 'delete'] as const) {
      expect((await moderator.api[method](`/users/detail/${'x'.repeat(300)}/suspension`)).status).toBe(404);
    }
    expect((await alice.api.delete(`/posts/detail/${first.slug}`)).status).toBe(204);
    // The feed reads its tag and a page of entries, the newest removal (the delete above wrote one), then the posts.
    expect((await anonymous.get('/feed', { query: { tag: tag.body.slug } })).status).toBe(200);
    expect((await anonymous.get('/openapi.json')).status).toBe(200);
    expect((await anonymous.get('/docs')).status).toBe(200);
    expect((await alice.api.get('/nowhere')).status).toBe(404);
    // Sign-up, and a password change (its sweep deletes tokens beyond one transaction with BatchWriteItem).
    const signedUp = await anonymous.post('/users', { json: { username: unique('signup'), password: 'correct horse battery' } });
    expect(signedUp.status).toBe(201);
    const changer = signedUp.body as { username: string; token: string };
    const extraTokens = Array.from({ length: 100 }, () => ({ PutRequest: { Item: newTokenItem(newToken(1), { id: 1, username: changer.username }) } }));
    for (let start = 0; start < extraTokens.length; start += 25) {
      await db().send(new BatchWriteCommand({ RequestItems: { [api.table]: extraTokens.slice(start, start + 25) } }));
    }
    const changed = await api
      .client(changer.token)
      .post(`/users/detail/${changer.username}/password`, { json: { old_password: 'correct horse battery', new_password: 'another long passphrase' } });
    expect(changed.status).toBe(200);
    expect((await alice.api.post(`/users/detail/${'x'.repeat(300)}/password`, { json: {} })).status).toBe(404);
    expect((await alice.api.get('/logout')).status).toBe(200);
    // The stream consumer has answered every change by now: it removed the visits of the deleted post.
    await api.streams!.caughtUp();

    // Each grant is one (action, resource pattern) of the role policy the guard enforces: used when
    // one of the function's calls needed a permission that this grant alone allows, matched as the
    // guard matches it.
    const grants = (handler: string) =>
      (api.server.deployment.functions.get(functionName(handler))?.policy ?? []).flatMap((statement) =>
        statement.actions.flatMap((action) => statement.resources.map((resource) => ({ action, resource }))),
      );
    const handlers = [...new Set(ROUTES.map((route) => route.handler)), FALLBACK_HANDLER, TABLE_STREAM_CONSUMER.handler];
    const report: Record<string, { unused: string[] }> = {};
    for (const handler of handlers) {
      const used = [...(api.server.guard.used.get(functionName(handler)) ?? [])].map((use) => {
        const [action, resource] = use.split(' ') as [string, string];
        return { action, resource };
      });
      const unused = grants(handler).filter(
        (grant) => !used.some((use) => deniedPermission([{ actions: [grant.action], resources: [grant.resource] }], [use]) === undefined),
      );
      report[handler] = { unused: unused.map((grant) => `${grant.action} ${grant.resource}`) };
    }
    expect(api.server.guard.denials).toEqual([]);
    // One exception: ListStreams, which AWS requires of a stream consumer's role for its event source
    // mapping (CDK's DynamoEventSource grants it), is not a call the local poller makes.
    const expected = Object.fromEntries(handlers.map((handler) => [handler, [] as string[]]));
    expected[TABLE_STREAM_CONSUMER.handler] = STREAM_READ_ACTIONS.anyResource.map((action) => `dynamodb:${action} *`);
    expect(Object.fromEntries(Object.entries(report).map(([handler, { unused }]) => [handler, unused]))).toEqual(expected);
  });
});

describe.skipIf(BUNDLES)('the guard follows the function across a new DynamoDB client', () => {
  it('keeps checking after the client is made anew (resetDb)', async () => {
    const { resetDb } = await import('#lib/db/client.ts');
    const api = await startApi({ grants: { AuthCheck: { table: [], indexes: [] } } });
    const carol = await api.user('carol');
    resetDb();
    expect((await carol.api.get('/auth')).status).toBe(500);
    expect(api.server.guard.denials.map((denial) => denial.identity)).toContain('AuthCheck');
    await api.close();
  });
});
