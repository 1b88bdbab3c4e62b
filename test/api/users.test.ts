import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { deactivateUser } from '#lib/auth/deactivate.ts';
import { db } from '#lib/db/client.ts';
import { keys } from '#lib/db/keys.ts';
import { setFeatured } from '#lib/posts/feature.ts';
import { unique, type TestUser } from '../support/api.ts';
import { EMPTY_PROFILE_FIELDS, PROFILE_FIELDS } from '../support/contract.ts';
import { useApi } from '../support/fixture.ts';

const PROFILE_TIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{6}\+00:00$/;
const api = useApi();
/** Every account this file creates, in creation order, and those later deactivated. */
const created: string[] = [];
const deactivated = new Set<string>();

async function newUser(prefix: string): Promise<TestUser> {
  const user = await api.user(prefix);
  created.push(user.username);
  return user;
}

async function deactivate(username: string): Promise<void> {
  await deactivateUser(username);
  deactivated.add(username);
}

/** The active users this file created, newest first. */
function expectedUsers(): string[] {
  return created.filter((name) => !deactivated.has(name)).reverse();
}

function nextLink(headers: Headers): string | null {
  const link = headers.get('link');
  if (!link) return null;
  const match = /^<([^>]+)>; rel="next"$/.exec(link);
  expect(match, link).not.toBeNull();
  return match![1]!;
}

describe('GET /users', () => {
  let viewer: TestUser;
  beforeAll(async () => {
    viewer = await newUser('viewer');
    for (let i = 0; i < 4; i++) await newUser(`listed${i}`);
    const gone = await newUser('gone');
    await deactivate(gone.username);
  });

  it('lists active users, newest date_joined first, without deactivated users', async () => {
    const response = await viewer.api.get('/users');
    expect(response.status).toBe(200);
    expect(Array.isArray(response.body)).toBe(true);
    const names = response.body.map((p: any) => p.user);
    expect(names).toEqual(expectedUsers());
    expect(names).toHaveLength(5);
    for (const name of deactivated) expect(names).not.toContain(name);
    const joined = response.body.map((p: any) => p.date_joined);
    expect([...joined].sort().reverse()).toEqual(joined);
    for (const profile of response.body) expect(Object.keys(profile)).toEqual(PROFILE_FIELDS);
    expect(response.headers.get('link')).toBeNull();
  });

  it('pages with page_size and page, with a Link to the next page', async () => {
    const all = expectedUsers();
    const first = await viewer.api.get('/users', { query: { page_size: '2' } });
    expect(first.status).toBe(200);
    expect(first.body.map((p: any) => p.user)).toEqual(all.slice(0, 2));
    const link2 = nextLink(first.headers);
    expect(link2).not.toBeNull();

    const second = await viewer.api.get(link2!);
    expect(second.status).toBe(200);
    expect(second.body.map((p: any) => p.user)).toEqual(all.slice(2, 4));
    const link3 = nextLink(second.headers);
    expect(link3).not.toBeNull();

    const third = await viewer.api.get(link3!);
    expect(third.status).toBe(200);
    expect(third.body.map((p: any) => p.user)).toEqual(all.slice(4, 6));
    expect(third.headers.get('link')).toBeNull();

    // The same pages by number.
    const byNumber2 = await viewer.api.get('/users', { query: { page_size: '2', page: '2' } });
    expect(byNumber2.status).toBe(200);
    expect(byNumber2.body).toEqual(second.body);
    expect(nextLink(byNumber2.headers)).not.toBeNull();
    const byNumber3 = await viewer.api.get('/users', { query: { page_size: '2', page: '3' } });
    expect(byNumber3.body).toEqual(third.body);
    expect(byNumber3.headers.get('link')).toBeNull();

    // page 1 explicitly is the first page.
    const page1 = await viewer.api.get('/users', { query: { page: '1', page_size: '2' } });
    expect(page1.body).toEqual(first.body);
  });

  it('answers pages past the end or not positive integers with 404 "Invalid page."', async () => {
    const queries: Record<string, string>[] = [{ page: '4', page_size: '2' }, { page: '2' }, { page: '0' }, { page: 'abc' }, { page: '-1' }, { page: '1.5' }];
    for (const query of queries) {
      const response = await viewer.api.get('/users', { query });
      expect(response.status, JSON.stringify(query)).toBe(404);
      expect(response.body, JSON.stringify(query)).toEqual({ detail: 'Invalid page.' });
    }
  });

  it('requires a token', async () => {
    const response = await api.client().get('/users');
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ detail: 'Authentication credentials were not provided.' });
  });
});

describe('GET /users/detail/{username}', () => {
  it("returns the profile with the contract's fields in order", async () => {
    const viewer = await newUser('detailviewer');
    const subject = await newUser('subject');
    const response = await viewer.api.get(`/users/detail/${subject.username}`);
    expect(response.status).toBe(200);
    expect(Object.keys(response.body)).toEqual(PROFILE_FIELDS);
    expect(response.body).toMatchObject({
      user: subject.username,
      total_posts: 0,
      total_favorites: 0,
      total_featured_posts: 0,
      ...EMPTY_PROFILE_FIELDS,
    });
    expect(response.body.date_joined).toMatch(PROFILE_TIME);
    expect(response.body.last_login).toMatch(PROFILE_TIME);
    expect(response.body.last_login >= response.body.date_joined).toBe(true);
  });

  it('answers an unknown username with 404 "Not found."', async () => {
    const viewer = await newUser('lost');
    const response = await viewer.api.get(`/users/detail/${unique('nobody')}`);
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ detail: 'Not found.' });
  });

  it("answers a deactivated user's profile with 200, unchanged; the list leaves them out and their login is refused", async () => {
    const viewer = await newUser('deacviewer');
    const subject = await newUser('deactivated');
    await subject.api.put(`/users/detail/${subject.username}`, { form: { display_name: 'Gone Soon', location: 'Lisbon' } });
    const post = await subject.api.post('/posts', { form: { title: unique('Left behind '), description: 'still here', publish: 'true' } });
    expect(post.status).toBe(201);
    const before = await viewer.api.get(`/users/detail/${subject.username}`);
    expect(before.body).toMatchObject({ display_name: 'Gone Soon', total_posts: 1 });

    await deactivate(subject.username);

    const response = await viewer.api.get(`/users/detail/${subject.username}`);
    expect(response.status).toBe(200);
    expect(Object.keys(response.body)).toEqual(PROFILE_FIELDS);
    expect(response.body).toEqual(before.body);
    // Their post stays published and names them as its author.
    const read = await viewer.api.get(`/posts/detail/${post.body.slug}`);
    expect(read.status).toBe(200);
    expect(read.body.author).toBe(subject.username);

    const listed = await viewer.api.get('/users', { query: { page_size: '100' } });
    expect(listed.status).toBe(200);
    expect(listed.body.map((p: any) => p.user)).not.toContain(subject.username);
    expect(listed.body.map((p: any) => p.user)).toContain(viewer.username);
    const login = await api.client().post('/login', { json: { username: subject.username, password: subject.password } });
    expect(login.status).toBe(400);
    expect(login.body).toEqual({ non_field_errors: ['Unable to log in with provided credentials.'] });
  });

  it('requires a valid token', async () => {
    const subject = await newUser('private');
    const none = await api.client().get(`/users/detail/${subject.username}`);
    expect(none.status).toBe(401);
    const bad = await api.client('f'.repeat(40)).get(`/users/detail/${subject.username}`);
    expect(bad.status).toBe(401);
    expect(bad.body).toEqual({ detail: 'Invalid token.' });
  });
});

describe('PUT /users/detail/{username}', () => {
  it('updates any subset of fields from a form body; omitted fields keep their values', async () => {
    const user = await newUser('formedit');
    const path = `/users/detail/${user.username}`;
    const fields = {
      display_name: 'Form Name',
      location: 'Berlin',
      about_me: 'Hello *world*',
      website: 'https://example.com/me',
      twitter: '@me',
      linkedin: 'in/me',
      github: 'https://github.com/me',
      birth_date: '1990-05-17',
    };
    const first = await user.api.put(path, { form: fields });
    expect(first.status).toBe(200);
    expect(Object.keys(first.body)).toEqual(PROFILE_FIELDS);
    const full = { user: user.username, ...fields };
    expect(first.body).toMatchObject(full);

    const second = await user.api.put(path, { form: { location: 'Paris' } });
    expect(second.status).toBe(200);
    expect(second.body).toMatchObject({ ...full, location: 'Paris' });

    const stored = await user.api.get(path);
    expect(stored.body).toEqual(second.body);
  });

  it('updates from a JSON body; JSON null clears a field', async () => {
    const user = await newUser('jsonedit');
    const path = `/users/detail/${user.username}`;
    const set = await user.api.put(path, { json: { display_name: 'Jay Son', about_me: 'json', birth_date: '2000-02-29' } });
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({ display_name: 'Jay Son', about_me: 'json', birth_date: '2000-02-29', location: null });

    const cleared = await user.api.put(path, { json: { display_name: null, birth_date: null } });
    expect(cleared.status).toBe(200);
    expect(cleared.body).toMatchObject({ display_name: null, birth_date: null, about_me: 'json' });
    expect((await user.api.get(path)).body).toEqual(cleared.body);
  });

  it('accepts an empty body and changes nothing', async () => {
    const user = await newUser('emptyedit');
    const path = `/users/detail/${user.username}`;
    const before = await user.api.get(path);
    const response = await user.api.put(path, { json: {} });
    expect(response.status).toBe(200);
    expect(response.body).toEqual(before.body);
  });

  it('in a form body, an empty birth_date sets it to null', async () => {
    const user = await newUser('blankdate');
    const path = `/users/detail/${user.username}`;
    expect((await user.api.put(path, { form: { birth_date: '1985-12-31' } })).body.birth_date).toBe('1985-12-31');
    const cleared = await user.api.put(path, { form: { birth_date: '' } });
    expect(cleared.status).toBe(200);
    expect(cleared.body.birth_date).toBeNull();
    expect((await user.api.get(path)).body.birth_date).toBeNull();
  });

  it('ignores read-only fields in the body', async () => {
    const user = await newUser('readonly');
    const path = `/users/detail/${user.username}`;
    const before = await user.api.get(path);
    const readOnly = {
      user: 'someone-else',
      username: 'someone-else',
      last_login: '2000-01-01 00:00:00.000000+00:00',
      date_joined: '2000-01-01 00:00:00.000000+00:00',
      total_posts: 99,
      total_favorites: 98,
      total_featured_posts: 97,
      id: 12345,
      is_active: false,
    };
    const json = await user.api.put(path, { json: { ...readOnly, location: 'Rome' } });
    expect(json.status).toBe(200);
    expect(json.body).toEqual({ ...before.body, location: 'Rome' });

    const form = await user.api.put(path, {
      form: Object.fromEntries(Object.entries({ ...readOnly, location: 'Oslo' }).map(([k, v]) => [k, String(v)])),
    });
    expect(form.status).toBe(200);
    expect(form.body).toEqual({ ...before.body, location: 'Oslo' });

    // The account is still there, active, under its own name.
    expect((await user.api.get('/auth')).body.username).toBe(user.username);
    expect((await user.api.get(path)).body).toEqual(form.body);
    expect((await user.api.get('/users/detail/someone-else')).status).toBe(404);
  });

  it("refuses another user's profile with 403 and changes nothing", async () => {
    const owner = await newUser('owner');
    const intruder = await newUser('intruder');
    const path = `/users/detail/${owner.username}`;
    await owner.api.put(path, { form: { display_name: 'Original' } });
    const before = await owner.api.get(path);

    const json = await intruder.api.put(path, { json: { display_name: 'Hacked', location: 'nowhere' } });
    expect(json.status).toBe(403);
    expect(json.body).toEqual({ detail: 'You are not owner of this profile!' });
    const form = await intruder.api.put(path, { form: { about_me: 'hacked' } });
    expect(form.status).toBe(403);
    expect(form.body).toEqual({ detail: 'You are not owner of this profile!' });
    // Even an invalid body is refused as not-owner.
    const invalid = await intruder.api.put(path, { form: { website: 'nope' } });
    expect(invalid.status).toBe(403);

    expect((await owner.api.get(path)).body).toEqual(before.body);
    expect((await intruder.api.get(`/users/detail/${intruder.username}`)).body).toMatchObject(EMPTY_PROFILE_FIELDS);
  });

  it("refuses a deactivated user's profile to others with 403, as any profile not theirs, and changes nothing", async () => {
    const intruder = await newUser('deacintruder');
    const owner = await newUser('deacowner');
    const path = `/users/detail/${owner.username}`;
    await owner.api.put(path, { form: { display_name: 'Original' } });
    await deactivate(owner.username);
    const before = await intruder.api.get(path);

    const response = await intruder.api.put(path, { json: { display_name: 'Hacked' } });
    expect(response.status).toBe(403);
    expect(response.body).toEqual({ detail: 'You are not owner of this profile!' });
    expect((await intruder.api.get(path)).body).toEqual(before.body);
    // The owner's own tokens went with the deactivation.
    const own = await owner.api.put(path, { json: { display_name: 'Back' } });
    expect(own.status).toBe(401);
    expect(own.body).toEqual({ detail: 'Invalid token.' });
  });

  it('answers the owner of a profile being deactivated with 401, whose token awaits the sweep, and changes nothing', async () => {
    // The state between the deactivation's transaction and its sweep of the tokens it could not
    // hold: the profile is inactive while one of the owner's tokens is still stored.
    const owner = await newUser('deacrace');
    const viewer = await newUser('deacraceviewer');
    const path = `/users/detail/${owner.username}`;
    await db().send(
      new UpdateCommand({
        TableName: api.table,
        Key: keys.userProfile(owner.username),
        UpdateExpression: 'SET is_active = :false',
        ExpressionAttributeValues: { ':false': false },
      }),
    );
    const before = await viewer.api.get(path);
    const response = await owner.api.put(path, { json: { location: 'Nowhere' } });
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ detail: 'Invalid token.' });
    expect(response.headers.get('www-authenticate')).toBe('Token');
    expect((await viewer.api.get(path)).body).toEqual(before.body);
  });

  it('answers an unknown username with 404', async () => {
    const user = await newUser('editlost');
    const response = await user.api.put(`/users/detail/${unique('nobody')}`, { form: { display_name: 'x' } });
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ detail: 'Not found.' });
  });

  it('requires a token', async () => {
    const user = await newUser('anonedit');
    const response = await api.client().put(`/users/detail/${user.username}`, { form: { display_name: 'anon' } });
    expect(response.status).toBe(401);
    expect((await user.api.get(`/users/detail/${user.username}`)).body.display_name).toBeNull();
  });

  it('validates URLs: website and github must be http(s) URLs or empty', async () => {
    const user = await newUser('urls');
    const path = `/users/detail/${user.username}`;
    for (const bad of ['not a url', 'example.com', 'ftp://example.com/file', 'javascript:alert(1)', 'http://', 'https://exa mple.com']) {
      const response = await user.api.put(path, { form: { website: bad, github: bad } });
      expect(response.status, bad).toBe(400);
      expect(response.body, bad).toEqual({ website: ['Enter a valid URL.'], github: ['Enter a valid URL.'] });
    }
    expect((await user.api.get(path)).body).toMatchObject({ website: null, github: null });

    const good = await user.api.put(path, { form: { website: 'http://example.org', github: 'https://github.com/someone' } });
    expect(good.status).toBe(200);
    expect(good.body).toMatchObject({ website: 'http://example.org', github: 'https://github.com/someone' });

    const empty = await user.api.put(path, { form: { website: '', github: '', twitter: '', linkedin: '' } });
    expect(empty.status).toBe(200);
    expect(empty.body).toMatchObject({ website: '', github: '', twitter: '', linkedin: '' });

    const emptyJson = await user.api.put(path, { json: { twitter: '', linkedin: '' } });
    expect(emptyJson.status).toBe(200);
    expect(emptyJson.body).toMatchObject({ twitter: '', linkedin: '' });
  });

  it('validates birth_date: YYYY-MM-DD and a real calendar date', async () => {
    const user = await newUser('dates');
    const path = `/users/detail/${user.username}`;
    const message = { birth_date: ['Date has wrong format. Use one of these formats instead: YYYY-MM-DD.'] };
    for (const bad of ['17/05/1990', '1990-5-17', '1990-05-17T00:00:00', 'yesterday', '2023-02-30', '2023-13-01', '2023-02-29']) {
      const response = await user.api.put(path, { form: { birth_date: bad } });
      expect(response.status, bad).toBe(400);
      expect(response.body, bad).toEqual(message);
    }
    const json = await user.api.put(path, { json: { birth_date: '2023-04-31' } });
    expect(json.status).toBe(400);
    expect(json.body).toEqual(message);
    expect((await user.api.get(path)).body.birth_date).toBeNull();

    const leap = await user.api.put(path, { form: { birth_date: '2024-02-29' } });
    expect(leap.status).toBe(200);
    expect(leap.body.birth_date).toBe('2024-02-29');
  });

  it('enforces maximum lengths', async () => {
    const user = await newUser('lengths');
    const path = `/users/detail/${user.username}`;
    const tooLong = (n: number) => `Ensure this field has no more than ${n} characters.`;
    const url = (length: number) => {
      const prefix = 'https://example.com/';
      return prefix + 'a'.repeat(length - prefix.length);
    };

    const over = await user.api.put(path, {
      json: {
        display_name: 'd'.repeat(151),
        location: 'l'.repeat(151),
        about_me: 'a'.repeat(5001),
        website: url(201),
        twitter: 't'.repeat(201),
        linkedin: 'k'.repeat(201),
        github: url(201),
      },
    });
    expect(over.status).toBe(400);
    expect(over.body).toEqual({
      display_name: [tooLong(150)],
      location: [tooLong(150)],
      about_me: [tooLong(5000)],
      website: [tooLong(200)],
      twitter: [tooLong(200)],
      linkedin: [tooLong(200)],
      github: [tooLong(200)],
    });
    // A rejected update changes nothing, not even its valid fields.
    const mixed = await user.api.put(path, { form: { location: 'Valid', display_name: 'x'.repeat(151) } });
    expect(mixed.status).toBe(400);
    expect(mixed.body).toEqual({ display_name: [tooLong(150)] });
    expect((await user.api.get(path)).body).toMatchObject(EMPTY_PROFILE_FIELDS);

    const atLimit = {
      display_name: 'd'.repeat(150),
      location: 'l'.repeat(150),
      about_me: 'a'.repeat(5000),
      website: url(200),
      twitter: 't'.repeat(200),
      linkedin: 'k'.repeat(200),
      github: url(200),
    };
    const exact = await user.api.put(path, { form: atLimit });
    expect(exact.status).toBe(200);
    expect(exact.body).toMatchObject(atLimit);
    expect((await user.api.get(path)).body).toMatchObject(atLimit);
  });
});

describe('profile counters', () => {
  it('total_posts and total_featured_posts count published posts only', async () => {
    const author = await newUser('author');
    const viewer = await newUser('counterviewer');
    const path = `/users/detail/${author.username}`;
    const counters = async () => {
      const { body } = await viewer.api.get(path);
      return { posts: body.total_posts, featured: body.total_featured_posts, favorites: body.total_favorites };
    };
    const create = async (title: string, publish: boolean) => {
      const response = await author.api.post('/posts', { form: { title, description: 'text', publish: String(publish) } });
      expect(response.status).toBe(201);
      return response.body.slug as string;
    };

    expect(await counters()).toEqual({ posts: 0, featured: 0, favorites: 0 });
    const one = await create(unique('Published one '), true);
    const two = await create(unique('Published two '), true);
    const draft = await create(unique('Draft '), false);
    expect(await counters()).toEqual({ posts: 2, featured: 0, favorites: 0 });

    await setFeatured(one, true);
    expect(await counters()).toEqual({ posts: 2, featured: 1, favorites: 0 });

    // A featured draft is not counted until it is published.
    await setFeatured(draft, true);
    expect(await counters()).toEqual({ posts: 2, featured: 1, favorites: 0 });
    const published = await author.api.put(`/posts/detail/${draft}`, { form: { publish: 'true' } });
    expect(published.status).toBe(200);
    expect(await counters()).toEqual({ posts: 3, featured: 2, favorites: 0 });

    // Unpublishing and deleting take posts out of the counts.
    expect((await author.api.put(`/posts/detail/${one}`, { form: { publish: 'false' } })).status).toBe(200);
    expect(await counters()).toEqual({ posts: 2, featured: 1, favorites: 0 });
    expect((await author.api.delete(`/posts/detail/${draft}`)).status).toBe(204);
    expect(await counters()).toEqual({ posts: 1, featured: 0, favorites: 0 });
    await setFeatured(two, true);
    expect(await counters()).toEqual({ posts: 1, featured: 1, favorites: 0 });
    await setFeatured(two, false);
    expect(await counters()).toEqual({ posts: 1, featured: 0, favorites: 0 });

    // The users list shows the same numbers.
    const list = await viewer.api.get('/users');
    const listed = list.body.find((p: any) => p.user === author.username);
    expect(listed).toMatchObject({ total_posts: 1, total_featured_posts: 0, total_favorites: 0 });
  });
});
