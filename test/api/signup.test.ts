import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, describe, expect, it } from 'vitest';
import { createUser } from '#lib/auth/create-account.ts';
import { db } from '#lib/db/client.ts';
import { keys } from '#lib/db/keys.ts';
import { setSignupClosed } from '#lib/users/signup-setting.ts';
import { BUNDLES, unique } from '../support/api.ts';
import { useApi } from '../support/fixture.ts';
import { fromAddress } from '../support/source-address.ts';

// POST /users. Each test signs up from loopback addresses of its own (127.0.1.x): sign-ups are
// limited per source address (10 an hour), and the local gateway takes the address from the
// connection, as API Gateway does.

const api = useApi({ users: ['alice'] });
const { alice } = api.users;

let nextAddress = 1;
const newAddress = () => `127.0.1.${nextAddress++}`;
const client = () => fromAddress(api.url, newAddress());

const GOOD = 'correct horse battery';
const REQUIRED = 'This field is required.';
const BLANK = 'This field may not be blank.';
const INVALID = 'Enter a valid username. This value may contain only letters, numbers, and @/./+/-/_ characters.';
const TAKEN = 'A user with that username already exists.';

const stored = async (username: string) =>
  (await db().send(new GetCommand({ TableName: api.table, Key: keys.userProfile(username), ConsistentRead: true }))).Item;

afterEach(() => {
  delete process.env.SIGNUP;
});

describe('POST /users', () => {
  it('creates an active account with the next id and an empty profile, and returns its first token', async () => {
    const username = unique('new');
    const response = await client().signUp({ username, password: GOOD });
    expect(response.status, response.text).toBe(201);
    expect(Object.keys(response.body)).toEqual(['id', 'username', 'token']);
    expect(response.body).toEqual({ id: alice.id + 1, username, token: expect.stringMatching(/^[0-9a-f]{40}$/) });
    const token = response.body.token as string;
    // The token works as a login's does.
    expect((await api.client(token).get('/auth')).body).toEqual({ id: alice.id + 1, token, username, is_moderator: false });
    const profile = await alice.api.get(`/users/detail/${username}`);
    expect(profile.status).toBe(200);
    expect(profile.body).toMatchObject({ user: username, total_posts: 0, total_favorites: 0, total_featured_posts: 0, display_name: null, about_me: null });
    expect(profile.body.last_login).toBe(profile.body.date_joined);
    expect((await alice.api.get('/users')).body.map((user: { user: string }) => user.user)).toContain(username);
    expect((await api.client().post('/login', { json: { username, password: GOOD } })).status).toBe(200);
  });

  it('needs no token and ignores one that is invalid', async () => {
    const username = unique('anon');
    const response = await api.client('f'.repeat(40)).post('/users', { form: { username, password: GOOD } });
    expect(response.status, response.text).toBe(201);
    expect(response.body.username).toBe(username);
  });

  it('answers missing and blank fields as DRF does, and stores nothing', async () => {
    const from = client();
    expect((await from.signUp({})).body).toEqual({ username: [REQUIRED], password: [REQUIRED] });
    const blank = await from.signUp({ username: '', password: '' });
    expect(blank.status).toBe(400);
    expect(blank.body).toEqual({ username: [BLANK], password: [BLANK] });
    const name = unique('half');
    expect((await from.signUp({ username: name })).body).toEqual({ password: [REQUIRED] });
    expect(await stored(name)).toBeUndefined();
  });

  it('refuses usernames with other characters or over 150 characters', async () => {
    const from = client();
    for (const username of ['has space', 'semi;colon', 'slash/name', 'emoji😀']) {
      const response = await from.signUp({ username, password: GOOD });
      expect(response.status, username).toBe(400);
      expect(response.body, username).toEqual({ username: [INVALID] });
    }
    const long = await from.signUp({ username: 'a'.repeat(151), password: GOOD });
    expect(long.body).toEqual({ username: ['Ensure this field has no more than 150 characters.'] });
  });

  it('accepts letters of any script, digits, @ . + - _ and exactly 150 characters', async () => {
    const from = client();
    const unicode = `${unique('Zoë')}.δ+x-y_z@w`;
    expect((await from.signUp({ username: unicode, password: GOOD })).status).toBe(201);
    const longest = unique('l').padEnd(150, 'x');
    expect((await from.signUp({ username: longest, password: GOOD })).status).toBe(201);
  });

  it('reports a username taken in any case, also one the admin CLI created', async () => {
    const from = client();
    const name = unique('Bob');
    expect((await from.signUp({ username: name, password: GOOD })).status).toBe(201);
    for (const variant of [name, name.toLowerCase(), name.toUpperCase()]) {
      const response = await from.signUp({ username: variant, password: GOOD });
      expect(response.status, variant).toBe(400);
      expect(response.body, variant).toEqual({ username: [TAKEN] });
    }
    const admin = unique('Carol');
    await createUser(admin, GOOD);
    expect((await from.signUp({ username: admin.toLowerCase(), password: GOOD })).body).toEqual({ username: [TAKEN] });
    expect((await from.signUp({ username: alice.username, password: GOOD })).body).toEqual({ username: [TAKEN] });
  });

  it('of two concurrent sign-ups of one name in different cases, exactly one succeeds', async () => {
    const name = unique('Race');
    const [upper, lower] = await Promise.all([
      client().signUp({ username: name, password: GOOD }),
      client().signUp({ username: name.toLowerCase(), password: GOOD }),
    ]);
    expect([upper.status, lower.status].sort()).toEqual([201, 400]);
    const loser = upper.status === 400 ? upper : lower;
    expect(loser.body).toEqual({ username: [TAKEN] });
    const winner = upper.status === 201 ? name : name.toLowerCase();
    const other = upper.status === 201 ? name.toLowerCase() : name;
    expect(await stored(winner)).toBeDefined();
    expect(await stored(other)).toBeUndefined();
  });

  it("checks the password with Django's default rules, one message per broken rule, in Django's order", async () => {
    const from = client();
    // Letters only: a username with digits could share enough of them with `48120957` for the
    // similarity rule to flag that password too.
    const username = unique('pw').replace(/[0-9]/g, (digit) => 'ghijklmnop'[Number(digit)]!);
    const cases: [string, string[]][] = [
      ['short1!', ['This password is too short. It must contain at least 8 characters.']],
      ['48120957', ['This password is entirely numeric.']],
      ['sunshine', ['This password is too common.']],
      [`${username}1`, ['The password is too similar to the username.']],
      ['123', ['This password is too short. It must contain at least 8 characters.', 'This password is too common.', 'This password is entirely numeric.']],
    ];
    for (const [password, messages] of cases) {
      const response = await from.signUp({ username, password });
      expect(response.status, password).toBe(400);
      expect(response.body, password).toEqual({ password: messages });
    }
    expect(await stored(username)).toBeUndefined();
  });

  it('reports every field at once', async () => {
    const response = await client().signUp({ username: alice.username.toUpperCase(), password: '1234' });
    expect(response.body).toEqual({
      username: [TAKEN],
      password: ['This password is too short. It must contain at least 8 characters.', 'This password is too common.', 'This password is entirely numeric.'],
    });
  });

  it('takes the password as sent: spaces count', async () => {
    const username = unique('spaces');
    expect((await client().signUp({ username, password: '  pass  ' })).body).toEqual({ password: ['This password is too common.'] });
    expect((await client().signUp({ username, password: ' 7 words x ' })).status).toBe(201);
    expect((await api.client().post('/login', { json: { username, password: ' 7 words x ' } })).status).toBe(200);
  });

  // The bundles run in processes of their own, with the template's environment: this process's SIGNUP does not reach them.
  it.skipIf(BUNDLES)('is closed with SIGNUP=closed: 403, nothing stored', async () => {
    process.env.SIGNUP = 'closed';
    const username = unique('closed');
    const response = await client().signUp({ username, password: GOOD });
    expect(response.status).toBe(403);
    expect(response.body).toEqual({ detail: 'Sign-up is closed.' });
    expect(await stored(username)).toBeUndefined();
  });

  it('is closed and reopened at run time by the administrator', async () => {
    await setSignupClosed(true);
    try {
      const username = unique('runtime');
      const response = await client().signUp({ username, password: GOOD });
      expect(response.status).toBe(403);
      expect(response.body).toEqual({ detail: 'Sign-up is closed.' });
      expect(await stored(username)).toBeUndefined();
    } finally {
      await setSignupClosed(false);
    }
    expect((await client().signUp({ username: unique('reopened'), password: GOOD })).status).toBe(201);
  });

  it('allows 10 attempts per source address an hour, whatever their outcome, then 429 with Retry-After', async () => {
    const from = client();
    const outcomes: number[] = [];
    for (let attempt = 0; attempt < 10; attempt++) {
      const response = await from.signUp(attempt % 2 ? { username: unique('lim'), password: GOOD } : { username: 'bad name' });
      outcomes.push(response.status);
    }
    expect(outcomes).toEqual([400, 201, 400, 201, 400, 201, 400, 201, 400, 201]);
    const username = unique('over');
    const throttled = await from.signUp({ username, password: GOOD });
    expect(throttled.status).toBe(429);
    const wait = Number(throttled.headers.get('retry-after'));
    expect(wait).toBeGreaterThanOrEqual(1);
    expect(wait).toBeLessThanOrEqual(3600);
    expect(throttled.body).toEqual({ detail: `Request was throttled. Expected available in ${wait} second${wait === 1 ? '' : 's'}.` });
    expect(await stored(username)).toBeUndefined();
    // Another address is not affected.
    expect((await client().signUp({ username, password: GOOD })).status).toBe(201);
  });

  it('counts concurrent attempts exactly', async () => {
    const address = newAddress();
    const responses = await Promise.all(Array.from({ length: 12 }, () => fromAddress(api.url, address).signUp({ username: 'bad name' })));
    expect(responses.map((r) => r.status).sort()).toEqual([...Array(10).fill(400), 429, 429]);
  });
});
