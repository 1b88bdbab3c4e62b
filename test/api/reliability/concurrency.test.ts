import { describe, expect, it } from 'vitest';
import { deactivateUser } from '#lib/auth/deactivate.ts';
import { resetRetryStats, retryStats } from '#lib/retry.ts';
import { hashToken } from '#lib/auth/tokens.ts';
import { unique, type ApiResponse, type TestUser } from '../../support/api.ts';
import { useApi } from '../../support/fixture.ts';
import { invariantProblems, median, recordFigures, settledTable, tally, type Item } from './table.ts';

// Over 200 mixed writes in flight at once from several users — creates with shared tags and
// colliding titles, renames onto one title, publish toggles, tag changes, deletes, first visits,
// profile updates, tag creates, logins and logouts — then every counter is recomputed from the
// base items and compared (tag total_posts, user total_posts/total_featured_posts, post
// total_visitors), with no orphan item (tag links, title claims, visits, tokens of logged-out
// sessions or of an account deactivated in the middle of it all) and every slug unique.
// test/api/concurrency.test.ts covers smaller, targeted races; this one is the scale test, with
// sessions in the mix.

const USERS = 8;
const SEED_POSTS = 5;

const NAMES = Array.from({ length: USERS }, (_, i) => `cc${i}`);
const api = useApi({ users: NAMES });
const users = NAMES.map((name) => api.users[name]!);
const m = unique('cc').toLowerCase();
const SHARED = [`Shared ${m}`, `Common ${m}`, `Topic ${m}`];

interface Op {
  kind: string;
  label: string;
  /** Whose session sends it. */
  by: TestUser;
  allowed: number[];
  run: () => Promise<ApiResponse<any>>;
  /** For checks afterwards. */
  meta?: Record<string, string>;
}

const variant = (n: number, text: string) => [text, text.toUpperCase(), text.toLowerCase()][n % 3]!;

describe('concurrent mixed writes', () => {
  it(`keeps every counter exact and leaves no orphans (${USERS} users, over 200 requests at once)`, async () => {
    // Seed: every user has published posts and drafts with shared tags, and spare sessions.
    // Forty creates at once may be told 503 on a busy machine; the seed, like any client, sends a
    // create told "busy" again after its Retry-After (a 503 stores nothing: checked below for the burst).
    const seeded = await Promise.all(
      users.flatMap((user, i) =>
        Array.from({ length: SEED_POSTS }, (_, k) =>
          unlessBusy(() =>
            user.api.post('/posts', {
              form: {
                title: `Seed ${m} ${i} ${k}`,
                description: `seed ${m} ${i}.${k}`,
                tags: [variant(i + k, SHARED[k % 3]!), `Own ${m} ${i}`].join(', '),
                publish: k % 2 ? 'false' : 'true',
              },
            }),
          ),
        ),
      ),
    );
    for (const response of seeded) expect(response.status, response.text).toBe(201);
    const slugOf = (i: number, k: number) => seeded[i * SEED_POSTS + k]!.body.slug as string;
    const spare = await Promise.all(
      users.map((user) => Promise.all([0, 1].map(() => api.client().post('/login', { json: { username: user.username, password: user.password } })))),
    );
    const spareTokens = spare.map((pair) => pair.map((r) => r.body.token as string));

    const ops: Op[] = [];
    users.forEach((user, i) => {
      const other = users[(i + 1) % USERS]!;
      const third = users[(i + 3) % USERS]!;
      // 6 creates: shared tags in different case, a new tag every user races to create, one shared title.
      for (let k = 0; k < 6; k++) {
        ops.push({
          kind: 'create',
          by: user,
          label: `create ${i}.${k}`,
          allowed: [201],
          meta: { description: `new ${m} ${i}.${k}` },
          run: () =>
            user.api.post('/posts', {
              form: {
                title: k === 0 ? `Same ${m}` : `New ${m} ${i} ${k}`,
                description: `new ${m} ${i}.${k}`,
                tags: [variant(i + k, SHARED[(i + k) % 3]!), variant(i, `Fresh ${m}`), k % 2 ? `Fresh ${m} ${k}` : ''].filter(Boolean).join(', '),
                publish: k % 3 ? 'true' : 'false',
              },
            }),
        });
      }
      // Post 0: renamed onto one title every user uses, and visited at the same time.
      ops.push({
        kind: 'rename',
        by: user,
        label: `rename ${i}`,
        allowed: [200],
        run: () => user.api.put(`/posts/detail/${slugOf(i, 0)}`, { form: { title: `Renamed ${m}` } }),
      });
      ops.push({
        kind: 'rename',
        by: user,
        label: `rename+publish ${i}`,
        allowed: [200],
        run: () => user.api.put(`/posts/detail/${slugOf(i, 1)}`, { form: { title: `Renamed too ${m}`, publish: 'true' } }),
      });
      for (const viewer of [other, third]) {
        ops.push({ kind: 'visit', by: viewer, label: `visit renamed ${i}`, allowed: [200, 404], run: () => viewer.api.get(`/posts/detail/${slugOf(i, 0)}`) });
      }
      // Post 2: publish toggles racing with tag changes and visits.
      ops.push({
        kind: 'toggle',
        by: user,
        label: `unpublish ${i}`,
        allowed: [200],
        run: () => user.api.put(`/posts/detail/${slugOf(i, 2)}`, { form: { publish: 'false' } }),
      });
      ops.push({
        kind: 'toggle',
        by: user,
        label: `publish ${i}`,
        allowed: [200],
        run: () => user.api.put(`/posts/detail/${slugOf(i, 2)}`, { form: { publish: 'true' } }),
      });
      ops.push({
        kind: 'retag',
        by: user,
        label: `retag ${i}`,
        allowed: [200],
        run: () => user.api.put(`/posts/detail/${slugOf(i, 2)}`, { form: { tags: `${variant(i + 1, SHARED[1]!)}, Retag ${m}` } }),
      });
      ops.push({
        kind: 'retag',
        by: user,
        label: `untag ${i}`,
        allowed: [200],
        run: () => user.api.put(`/posts/detail/${slugOf(i, 3)}`, { form: { tags: '' } }),
      });
      ops.push({
        kind: 'toggle',
        by: user,
        label: `publish draft ${i}`,
        allowed: [200],
        run: () => user.api.put(`/posts/detail/${slugOf(i, 3)}`, { form: { publish: 'true' } }),
      });
      for (const viewer of users.filter((u) => u !== user).slice(0, 4)) {
        ops.push({ kind: 'visit', by: viewer, label: `visit ${i}`, allowed: [200, 404], run: () => viewer.api.get(`/posts/detail/${slugOf(i, 2)}`) });
      }
      // Post 4: deleted while others visit it and the author edits it.
      ops.push({
        kind: 'delete',
        by: user,
        label: `delete ${i}`,
        allowed: [204],
        meta: { slug: slugOf(i, 4) },
        run: () => user.api.delete(`/posts/detail/${slugOf(i, 4)}`),
      });
      ops.push({
        kind: 'retag',
        by: user,
        label: `retag doomed ${i}`,
        allowed: [200, 404],
        run: () => user.api.put(`/posts/detail/${slugOf(i, 4)}`, { form: { tags: `Doomed ${m}` } }),
      });
      for (const viewer of [other, third])
        ops.push({ kind: 'visit', by: viewer, label: `visit doomed ${i}`, allowed: [200, 404], run: () => viewer.api.get(`/posts/detail/${slugOf(i, 4)}`) });
      // Sessions: two new logins, two logouts of spare tokens, the main token checked.
      for (let k = 0; k < 2; k++)
        ops.push({
          kind: 'login',
          by: user,
          label: `login ${i}.${k}`,
          allowed: [200],
          run: () => api.client().post('/login', { json: { username: user.username, password: user.password } }),
        });
      for (const token of spareTokens[i]!)
        ops.push({ kind: 'logout', by: user, label: `logout ${i}`, allowed: [200], meta: { token }, run: () => api.client(token).get('/logout') });
      ops.push({
        kind: 'profile',
        by: user,
        label: `profile ${i}`,
        allowed: [200],
        run: () => user.api.put(`/users/detail/${user.username}`, { form: { location: `City ${i}`, display_name: `User ${i}` } }),
      });
      ops.push({
        kind: 'tag',
        by: user,
        label: `tag ${i}`,
        allowed: [201, 409],
        run: () => user.api.post('/tags', { form: { title: variant(i, `Raced ${m}`) } }),
      });
    });
    expect(ops.length).toBeGreaterThanOrEqual(200);
    // Meanwhile the administrator deactivates the last user: whatever that user does may then be
    // refused (401), and none of the user's tokens may survive.
    const leaver = users[USERS - 1]!;
    for (const op of ops) if (op.by === leaver) op.allowed = [...op.allowed, 400, 401];

    resetRetryStats();
    const started = performance.now();
    const [outcomes] = await Promise.all([
      Promise.all(
        ops.map(async (op) => {
          const t0 = performance.now();
          const response = await op.run();
          return { ...op, response, ms: performance.now() - t0 };
        }),
      ),
      deactivateUser(leaver.username),
    ]);
    const wallMs = performance.now() - started;

    const byKind: Record<string, Record<string, number>> = {};
    for (const outcome of outcomes) {
      const status = outcome.response.status;
      tally((byKind[outcome.kind] ??= {}), String(status));
      const context = `${outcome.label}: ${status} ${outcome.response.text}`;
      if (status === 503) {
        expect(outcome.response.headers.get('retry-after'), context).toMatch(/^\d+$/);
        expect(outcome.response.body, context).toEqual({ detail: 'The service is busy. Please try again shortly.' });
      } else {
        expect(outcome.allowed, context).toContain(status);
      }
    }

    // The table: every counter recomputed from the base items, every link and claim resolves.
    const ofLeaver = (o: Op) => o.by === leaver;
    const issued = outcomes.filter((o) => o.kind === 'login' && o.response.status === 200 && !ofLeaver(o)).map((o) => o.response.body.token as string);
    const leaverTokens = [
      leaver.token,
      ...spareTokens[USERS - 1]!,
      ...outcomes.filter((o) => o.kind === 'login' && o.response.status === 200 && ofLeaver(o)).map((o) => o.response.body.token as string),
    ];
    const revoked = [...outcomes.filter((o) => o.kind === 'logout' && o.response.status === 200).map((o) => o.meta!.token!), ...leaverTokens];
    const items = await settledTable(api.table);
    expect(invariantProblems(items, { liveTokens: [...issued, ...users.slice(0, -1).map((u) => u.token)], revokedTokens: revoked })).toEqual([]);
    expect(
      items.filter((item) => String(item.PK).startsWith('TOKEN#') && item.username === leaver.username),
      'tokens of the deactivated user',
    ).toEqual([]);

    const posts = storedPosts(items);
    // Each create that answered 201 is stored once; one that did not, not at all.
    for (const outcome of outcomes.filter((o) => o.kind === 'create')) {
      const stored = posts.filter((post) => post.description === outcome.meta!.description);
      expect(stored, `${outcome.label}: ${outcome.response.status} ${outcome.response.text}`).toHaveLength(outcome.response.status === 201 ? 1 : 0);
      if (outcome.response.status === 201) expect(stored[0]!.slug).toBe(outcome.response.body.slug);
    }
    // The shared title got distinct slugs; a deleted post is gone with its visits.
    const same = posts.filter((post) => post.title === `Same ${m}` || post.title === `Renamed ${m}` || post.title === `Renamed too ${m}`);
    expect(new Set(same.map((post) => post.slug)).size).toBe(same.length);
    for (const outcome of outcomes.filter((o) => o.kind === 'delete' && o.response.status === 204)) {
      expect(
        posts.some((post) => post.slug === outcome.meta!.slug),
        outcome.label,
      ).toBe(false);
    }
    // The title raced in different case exists once; its claim points at it.
    const raced = items.filter((item) => String(item.PK).startsWith('TAG#') && String(item.title).toLowerCase() === `raced ${m}`);
    expect(raced).toHaveLength(1);
    expect(outcomes.filter((o) => o.kind === 'tag' && o.response.status === 201)).toHaveLength(1);

    // Sessions: revoked tokens are refused, issued ones work.
    for (const token of revoked) expect((await api.client(token).get('/auth')).status).toBe(401);
    for (const token of issued) expect((await api.client(token).get('/auth')).status).toBe(200);
    expect(items.filter((item) => String(item.PK).startsWith('TOKEN#') && revoked.map(hashToken).includes(String(item.PK).slice(6)))).toEqual([]);

    // And the API answers the counters the table holds.
    await expectApiAgrees(items);

    const busy = outcomes.filter((o) => o.response.status === 503).length;
    recordFigures('concurrency', {
      users: USERS,
      inFlight: ops.length + 1,
      deactivatedDuringRun: 1,
      byKind,
      status503: busy,
      retries: {
        conflictReruns: retryStats.conflictRetries,
        transactionResends: retryStats.transactionRetries,
        sdk: { ...retryStats.sdkRetries },
        budgetExhausted: retryStats.budgetExhausted,
      },
      wallMs: Math.round(wallMs),
      medianMs: Math.round(median(outcomes.map((o) => o.ms))),
      maxMs: Math.round(Math.max(...outcomes.map((o) => o.ms))),
      itemsChecked: items.length,
    });
  }, 180_000);
});

/** Sends a request again while it is answered 503, after the Retry-After it was given (at most 5 times). */
async function unlessBusy(send: () => Promise<ApiResponse<any>>): Promise<ApiResponse<any>> {
  for (let attempt = 1; ; attempt++) {
    const response = await send();
    if (response.status !== 503 || attempt === 5) return response;
    await new Promise((resolve) => setTimeout(resolve, Number(response.headers.get('retry-after')) * 1000));
  }
}

/** The posts of a scan: each text item with its stats (counters), as the API reads them. */
function storedPosts(items: Item[]): Item[] {
  const stats = new Map(items.filter((item) => item.SK === 'STATS').map((item) => [item.PK, item]));
  return items.filter((item) => String(item.PK).startsWith('POST#') && item.SK === 'POST').map((text) => ({ ...stats.get(text.PK), ...text }));
}

async function expectApiAgrees(items: Item[]): Promise<void> {
  const reader = users[0]!.api;
  const posts = storedPosts(items);
  // The deactivated user's profile too: it stays readable, with its posts counted.
  for (const user of users) {
    const profile = await reader.get(`/users/detail/${user.username}`);
    expect(profile.status, user.username).toBe(200);
    const mine = posts.filter((post) => post.author === user.username && post.publish === true);
    expect(profile.body.total_posts, user.username).toBe(mine.length);
    expect(profile.body.total_featured_posts).toBe(0);
  }
  for (const title of SHARED) {
    const tag = items.find((item) => String(item.PK).startsWith('TAG#') && String(item.title).toLowerCase() === title.toLowerCase())!;
    const response = await reader.get(`/tags/detail/${tag.slug}`);
    expect(response.body.total_posts, title).toBe(posts.filter((post) => post.publish === true && post.tag_slugs.includes(tag.slug)).length);
  }
  const listed = (await reader.get('/users', { query: { page_size: '100' } })).body.map((profile: { user: string }) => profile.user);
  expect(listed, 'the deactivated user is not listed').not.toContain(users[USERS - 1]!.username);
  expect(listed).toContain(users[0]!.username);
  for (const post of posts.filter((p) => p.publish === true && String(p.description).startsWith('seed')).slice(0, 10)) {
    const response = await reader.get(`/posts/detail/${post.slug}`);
    expect(response.status).toBe(200);
    // Reading it may add reader's own first visit.
    expect(response.body.total_visitors - Number(post.total_visitors)).toBeGreaterThanOrEqual(0);
    expect(response.body.total_visitors - Number(post.total_visitors)).toBeLessThanOrEqual(1);
  }
}
