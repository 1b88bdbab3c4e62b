import { BatchWriteCommand, GetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { createUser } from '#lib/auth/create-account.ts';
import { newToken, newTokenItem } from '#lib/auth/tokens.ts';
import { db } from '#lib/db/client.ts';
import { keys } from '#lib/db/keys.ts';
import { unique } from '../support/api.ts';
import { useApi } from '../support/fixture.ts';

const api = useApi({ users: ['alice', 'bob'] });
const { alice, bob } = api.users;

const NEW = 'a brand new passphrase';
const REQUIRED = 'This field is required.';
const path = (username: string) => `/users/detail/${username}/password`;
const login = (username: string, password: string) => api.client().post('/login', { json: { username, password } });
const storedHash = async (username: string) =>
  (await db().send(new GetCommand({ TableName: api.table, Key: keys.userCredentials(username), ConsistentRead: true }))).Item?.password;

describe('POST /users/detail/{username}/password', () => {
  it("changes the password: the caller's token keeps working, every other token stops", async () => {
    const user = await api.user('changer');
    const other = (await login(user.username, user.password)).body.token as string;
    const response = await user.api.post(path(user.username), { form: { old_password: user.password, new_password: NEW } });
    expect(response.status, response.text).toBe(200);
    expect(response.body).toEqual({ detail: 'Password changed.' });
    expect((await user.api.get('/auth')).status).toBe(200);
    expect((await api.client(other).get('/auth')).status).toBe(401);
    expect((await login(user.username, user.password)).status).toBe(400);
    expect((await login(user.username, NEW)).status).toBe(200);
  });

  it('accepts JSON', async () => {
    const user = await api.user('json');
    const response = await user.api.post(path(user.username), { json: { old_password: user.password, new_password: NEW } });
    expect(response.status).toBe(200);
  });

  it('revokes more tokens than one transaction holds', async () => {
    const user = await api.user('many');
    const tokens = Array.from({ length: 120 }, () => newToken(user.id));
    for (let start = 0; start < tokens.length; start += 25) {
      const items = tokens.slice(start, start + 25).map((token) => ({ PutRequest: { Item: newTokenItem(token, user) } }));
      await db().send(new BatchWriteCommand({ RequestItems: { [api.table]: items } }));
    }
    const response = await user.api.post(path(user.username), { form: { old_password: user.password, new_password: NEW } });
    expect(response.status).toBe(200);
    for (const token of [tokens[0]!, tokens[60]!, tokens[119]!]) expect((await api.client(token).get('/auth')).status).toBe(401);
    expect((await user.api.get('/auth')).status).toBe(200);
  });

  it("refuses someone else's account with 403 and changes nothing", async () => {
    const before = await storedHash(alice.username);
    const response = await bob.api.post(path(alice.username), { form: { old_password: alice.password, new_password: NEW } });
    expect(response.status).toBe(403);
    expect(response.body).toEqual({ detail: 'You are not owner of this profile!' });
    expect(await storedHash(alice.username)).toBe(before);
    expect((await alice.api.get('/auth')).status).toBe(200);
  });

  it('answers 404 for an unknown user and 401 without a valid token', async () => {
    expect((await alice.api.post(path(unique('ghost')), { form: { old_password: 'x', new_password: NEW } })).body).toEqual({ detail: 'Not found.' });
    const anonymous = await api.client().post(path(alice.username), { form: { old_password: alice.password, new_password: NEW } });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toEqual({ detail: 'Authentication credentials were not provided.' });
  });

  it('answers missing and blank fields as DRF does', async () => {
    expect((await alice.api.post(path(alice.username), { form: {} })).body).toEqual({ old_password: [REQUIRED], new_password: [REQUIRED] });
    expect((await alice.api.post(path(alice.username), { form: { old_password: alice.password } })).body).toEqual({ new_password: [REQUIRED] });
    const blank = await alice.api.post(path(alice.username), { form: { old_password: '', new_password: '' } });
    expect(blank.status).toBe(400);
    expect(blank.body).toEqual({ old_password: ['This field may not be blank.'], new_password: ['This field may not be blank.'] });
  });

  it('refuses a wrong old password, and stores nothing', async () => {
    const before = await storedHash(alice.username);
    const response = await alice.api.post(path(alice.username), { form: { old_password: 'not my password', new_password: NEW } });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ old_password: ['Wrong password.'] });
    expect(await storedHash(alice.username)).toBe(before);
  });

  it('checks the new password as at sign-up, messages under new_password', async () => {
    const cases: [string, string[]][] = [
      ['short1!', ['This password is too short. It must contain at least 8 characters.']],
      ['48120957', ['This password is entirely numeric.']],
      ['sunshine', ['This password is too common.']],
      [`${alice.username}!`, ['The password is too similar to the username.']],
    ];
    for (const [password, messages] of cases) {
      const response = await alice.api.post(path(alice.username), { form: { old_password: alice.password, new_password: password } });
      expect(response.status, password).toBe(400);
      expect(response.body, password).toEqual({ new_password: messages });
    }
    const both = await alice.api.post(path(alice.username), { form: { old_password: 'wrong', new_password: '123' } });
    expect(both.body).toEqual({
      old_password: ['Wrong password.'],
      new_password: [
        'This password is too short. It must contain at least 8 characters.',
        'This password is too common.',
        'This password is entirely numeric.',
      ],
    });
  });

  it('cannot set a password on an account without one (the admin CLI does)', async () => {
    const username = unique('thirdparty');
    await createUser(username, null);
    // Such an account has no token of its own: give it one as a login would.
    const token = newToken(1_000_000);
    await db().send(new BatchWriteCommand({ RequestItems: { [api.table]: [{ PutRequest: { Item: newTokenItem(token, { id: 1_000_000, username }) } }] } }));
    const response = await api.client(token).post(path(username), { form: { old_password: 'anything', new_password: NEW } });
    expect(response.body).toEqual({ old_password: ['Wrong password.'] });
  });
});
