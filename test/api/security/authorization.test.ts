import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { db } from '#lib/db/client.ts';
import { newToken, newTokenItem } from '#lib/auth/tokens.ts';
import { unique, type ApiClient, type ApiResponse, type TestUser } from '../../support/api.ts';
import { useApi } from '../../support/fixture.ts';
import { fingerprint, settledTable, tableDiff } from '../reliability/table.ts';

// Object-level authorization (OWASP API1) and authentication of every write: each write
// endpoint × (owner, other user, no token, the owner's revoked token, the owner's expired token).
// Only the owner succeeds; for every refused request the whole table is compared before and after.

const NO_CREDENTIALS = { detail: 'Authentication credentials were not provided.' };
const INVALID_TOKEN = { detail: 'Invalid token.' };
const NOT_LOGGED_IN = { detail: 'You are not logged in!' };
const NOT_PROFILE_OWNER = { detail: 'You are not owner of this profile!' };
const NOT_POST_OWNER = { detail: 'You are not owner of this post!' };
const NOT_FOUND = { detail: 'Not found.' };

type Actor = 'owner' | 'other' | 'none' | 'revoked' | 'expired';
const REFUSED: Actor[] = ['other', 'none', 'revoked', 'expired'];

const api = useApi({ users: { owner: 'az_owner', other: 'az_other' } });
// Reassigned after a test logs one of them out and back in.
let { owner, other } = api.users;
let revokedToken: string;
let expiredToken: string;
const w = unique('az').toLowerCase();

beforeAll(async () => {
  // The owner's own tokens, one logged out and one past its lifetime.
  const extra = await api.client().post('/login', { json: { username: owner.username, password: owner.password } });
  revokedToken = extra.body.token;
  expect((await api.client(revokedToken).get('/logout')).status).toBe(200);
  // A token past its lifetime, stored as login stores it (the functions' own TOKEN_TTL_DAYS is
  // the deployment's: with bundles it cannot be shortened from here).
  // Issued 2.1 seconds ago (this process's clock moved back while the item is made, not a sleep),
  // with a lifetime under a second: expired on every clock, the bundles' included.
  const previous = process.env.TOKEN_TTL_DAYS;
  process.env.TOKEN_TTL_DAYS = '0.00001'; // under a second, stored rounded to whole seconds
  let item: Record<string, unknown>;
  try {
    expiredToken = newToken(owner.id);
    item = api.clock.ago(2100, () => newTokenItem(expiredToken, { id: owner.id, username: owner.username }));
  } finally {
    if (previous === undefined) delete process.env.TOKEN_TTL_DAYS;
    else process.env.TOKEN_TTL_DAYS = previous;
  }
  await db().send(new PutCommand({ TableName: api.table, Item: item }));
}, 60_000);

function clientOf(actor: Actor): ApiClient {
  switch (actor) {
    case 'owner':
      return owner.api;
    case 'other':
      return other.api;
    case 'none':
      return api.client();
    case 'revoked':
      return api.client(revokedToken);
    case 'expired':
      return api.client(expiredToken);
  }
}

/** What a refused actor gets: 401 for every bad credential, and the endpoint's own answer for another user. */
function refusal(actor: Actor, forOther: { status: number; body: unknown }, logout = false) {
  if (actor === 'other') return forOther;
  if (logout) return { status: 401, body: NOT_LOGGED_IN };
  return actor === 'none' ? { status: 401, body: NO_CREDENTIALS } : { status: 401, body: INVALID_TOKEN };
}

async function newPost(publish: boolean, n: string) {
  const response = await owner.api.post('/posts', {
    form: { title: `Owned ${w} ${n}`, description: `owned ${n}`, tags: `Owned ${w}`, publish: String(publish) },
  });
  expect(response.status).toBe(201);
  return response.body.slug as string;
}

const NOT_COMMENT_OWNER = { detail: 'You are not owner of this comment!' };

interface Endpoint {
  name: string;
  /** Sends the request as `actor`; called once per actor, the owner last. */
  send: (actor: Actor) => Promise<ApiResponse<any>>;
  refused: (actor: Actor) => { status: number; body: unknown };
  /** The owner's success, and a check that it took effect. */
  success: number;
  verify?: (response: ApiResponse<any>) => Promise<void>;
}

describe('object-level authorization: every write endpoint × every kind of caller', () => {
  const endpoints = (): Promise<Endpoint[]> =>
    (async () => {
      const published = await newPost(true, 'published');
      const draft = await newPost(false, 'draft');
      const doomed = await newPost(true, 'doomed');
      const visited = await newPost(true, 'visited');
      const othersPost = await other.api.post('/posts', { form: { title: `Others ${w}`, description: 'theirs', publish: 'true' } });
      expect(othersPost.status).toBe(201);
      const favoriteDraft = await newPost(false, 'favorite');
      // v1.3: the owner's comments, and the other user's, on a published post of the owner's.
      const commented = await newPost(true, 'commented');
      const ownComment = async () => {
        const made = await owner.api.post(`/posts/detail/${commented}/comments`, { json: { body: 'Mine' } });
        expect(made.status).toBe(201);
        return made.body.id as string;
      };
      const [edited, deleted] = [await ownComment(), await ownComment()];
      const othersComment = await other.api.post(`/posts/detail/${commented}/comments`, { json: { body: 'Theirs' } });
      expect(othersComment.status).toBe(201);
      return [
        {
          name: 'PUT /comments/detail/{id}',
          send: (actor) => clientOf(actor).put(`/comments/detail/${edited}`, { json: { body: `edited by ${actor}` } }),
          refused: (actor) => refusal(actor, { status: 403, body: NOT_COMMENT_OWNER }),
          success: 200,
          verify: async (response) => expect(response.body).toMatchObject({ body: 'edited by owner', edited: true, author: owner.username }),
        },
        {
          name: 'DELETE /comments/detail/{id}',
          send: (actor) => clientOf(actor).delete(`/comments/detail/${deleted}`),
          refused: (actor) => refusal(actor, { status: 403, body: NOT_COMMENT_OWNER }),
          success: 204,
          verify: async () => expect((await other.api.get(`/comments/detail/${deleted}`)).status).toBe(404),
        },
        {
          name: "POST /comments/detail/{id}/report (the other user's comment)",
          send: (actor) => clientOf(actor).post(`/comments/detail/${othersComment.body.id}/report`, { json: { reason: 'spam' } }),
          // Its author cannot report it.
          refused: (actor) => refusal(actor, { status: 403, body: { detail: 'You cannot report your own comment.' } }),
          success: 201,
          verify: async (response) => expect(response.body).toMatchObject({ reporter: owner.username, status: 'open', open_reports: 1 }),
        },
        {
          name: 'PUT /users/detail/{username}',
          send: (actor) => clientOf(actor).put(`/users/detail/${owner.username}`, { form: { location: `set by ${actor}`, about_me: 'x' } }),
          refused: (actor) => refusal(actor, { status: 403, body: NOT_PROFILE_OWNER }),
          success: 200,
          verify: async () => expect((await other.api.get(`/users/detail/${owner.username}`)).body.location).toBe('set by owner'),
        },
        {
          name: 'PUT /posts/detail/{slug} (published)',
          send: (actor) => clientOf(actor).put(`/posts/detail/${published}`, { form: { description: `edited by ${actor}`, tags: `Taken by ${actor}` } }),
          refused: (actor) => refusal(actor, { status: 403, body: NOT_POST_OWNER }),
          success: 200,
          verify: async (response) => expect(response.body.description).toBe('edited by owner'),
        },
        {
          name: 'PUT /posts/detail/{slug} (draft)',
          send: (actor) => clientOf(actor).put(`/posts/detail/${draft}`, { form: { publish: 'true', title: `Hijacked ${actor} ${w}` } }),
          // Another user's draft does not exist for them.
          refused: (actor) => refusal(actor, { status: 404, body: NOT_FOUND }),
          success: 200,
          verify: async (response) => expect(response.body.publish).toBe(true),
        },
        {
          name: 'DELETE /posts/detail/{slug}',
          send: (actor) => clientOf(actor).delete(`/posts/detail/${doomed}`),
          refused: (actor) => refusal(actor, { status: 403, body: NOT_POST_OWNER }),
          success: 204,
          verify: async () => expect((await other.api.get(`/posts/detail/${doomed}`)).status).toBe(404),
        },
        {
          name: 'GET /posts/detail/{slug} (records a first visit)',
          send: (actor) => clientOf(actor).get(`/posts/detail/${actor === 'other' ? draft : visited}`),
          // Another user cannot see (nor be counted on) the owner's draft.
          refused: (actor) => refusal(actor, { status: 404, body: NOT_FOUND }),
          success: 200,
          verify: async (response) => expect(response.body.total_visitors).toBe(1),
        },
        {
          name: 'POST /posts (the author is always the caller)',
          send: (actor) => clientOf(actor).post('/posts', { form: { title: `By ${actor} ${w}`, description: 'd', author: other.username } }),
          // Another user may create posts, as themselves: that is their own write, checked below.
          refused: (actor) => refusal(actor, { status: 201, body: undefined }),
          success: 201,
          verify: async (response) => expect(response.body.author).toBe(owner.username),
        },
        {
          name: 'POST /tags',
          send: (actor) => clientOf(actor).post('/tags', { form: { title: `Tag by ${actor} ${w}` } }),
          refused: (actor) => refusal(actor, { status: 201, body: undefined }),
          success: 201,
        },
        {
          name: "POST /posts/detail/{slug}/vote (on the other user's post)",
          send: (actor) => clientOf(actor).post(`/posts/detail/${othersPost.body.slug}/vote`, { form: { vote: 'up' } }),
          // Its author cannot vote on it.
          refused: (actor) => refusal(actor, { status: 403, body: { detail: 'You cannot vote on your own post.' } }),
          success: 200,
          verify: async (response) => expect(response.body).toEqual({ vote: 'up', rating_likes: 1, rating_dislikes: 0 }),
        },
        {
          name: "POST /posts/detail/{slug}/favorite (the owner's draft)",
          send: (actor) => clientOf(actor).post(`/posts/detail/${favoriteDraft}/favorite`),
          refused: (actor) => refusal(actor, { status: 404, body: NOT_FOUND }),
          success: 200,
          verify: async (response) => expect(response.body).toEqual({ favorited: true, total_favorites: 1 }),
        },
        {
          name: "DELETE /posts/detail/{slug}/favorite (the owner's draft)",
          send: (actor) => clientOf(actor).delete(`/posts/detail/${favoriteDraft}/favorite`),
          refused: (actor) => refusal(actor, { status: 404, body: NOT_FOUND }),
          success: 200,
          verify: async (response) => expect(response.body).toEqual({ favorited: false, total_favorites: 0 }),
        },
        {
          name: 'GET /logout',
          send: (actor) => clientOf(actor).get('/logout'),
          // Another user's logout ends only their own session.
          refused: (actor) => refusal(actor, { status: 200, body: { detail: 'You are logged out!' } }, true),
          success: 200,
          verify: async () => {
            expect((await owner.api.get('/auth')).status).toBe(401);
            owner = { ...owner, ...(await relogin(owner)) };
          },
        },
      ];
    })();

  it('only the owner succeeds; every refused request changes nothing', async () => {
    const list = await endpoints();
    const matrix: Record<string, Record<Actor, number>> = {};
    for (const endpoint of list) {
      const row = (matrix[endpoint.name] = {} as Record<Actor, number>);
      for (const actor of REFUSED) {
        const before = await settledTable(api.table);
        const response = await endpoint.send(actor);
        const after = await settledTable(api.table);
        row[actor] = response.status;
        const expected = endpoint.refused(actor);
        const context = `${endpoint.name} as ${actor}: ${response.status} ${response.text}`;
        expect(response.status, context).toBe(expected.status);
        if (expected.status >= 400) {
          expect(response.body, context).toEqual(expected.body);
          if (expected.status === 401) expect(response.headers.get('www-authenticate'), context).toBe('Token');
          expect(tableDiff(before, after), context).toEqual([]);
          expect(fingerprint(after), context).toBe(fingerprint(before));
        } else if (endpoint.name.startsWith('POST /posts')) {
          // Another user's create is theirs, never the owner's.
          expect(response.body.author, context).toBe(other.username);
        } else if (endpoint.name === 'GET /logout') {
          // Only the other user's own token went; the owner's still works.
          expect((await owner.api.get('/auth')).status, context).toBe(200);
          expect((await other.api.get('/auth')).status, context).toBe(401);
          other = { ...other, ...(await relogin(other)) };
        }
      }
      const response = await endpoint.send('owner');
      row.owner = response.status;
      expect(response.status, `${endpoint.name} as owner: ${response.text}`).toBe(endpoint.success);
      await endpoint.verify?.(response);
    }
    console.info('authorization matrix (status by caller):', JSON.stringify(matrix));
  }, 120_000);

  it('the expired token is still stored, and refused everywhere, reads included', async () => {
    const { GetCommand } = await import('@aws-sdk/lib-dynamodb');
    const { db } = await import('#lib/db/client.ts');
    const { keys } = await import('#lib/db/keys.ts');
    const { hashToken } = await import('#lib/auth/tokens.ts');
    const { Item } = await db().send(new GetCommand({ TableName: api.table, Key: keys.token(hashToken(expiredToken)), ConsistentRead: true }));
    expect(Item, 'DynamoDB has not removed it (DynamoDB Local never does)').toBeDefined();
    expect(Number(Item!.expires_at)).toBeLessThanOrEqual(Math.floor(Date.now() / 1000));
    const client = api.client(expiredToken);
    for (const response of await Promise.all([
      client.get('/auth'),
      client.get('/users'),
      client.get(`/users/detail/${owner.username}`),
      client.get('/tags'),
      client.get('/posts'),
      client.get('/posts', { query: { q: 'owned' } }),
    ])) {
      expect(response.status).toBe(401);
      expect(response.body).toEqual(INVALID_TOKEN);
    }
  });
});

async function relogin(user: TestUser): Promise<Pick<TestUser, 'token' | 'api'>> {
  const response = await api.client().post('/login', { json: { username: user.username, password: user.password } });
  expect(response.status).toBe(200);
  return { token: response.body.token, api: api.client(response.body.token) };
}
