import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { searchTableOf } from '#lib/config.ts';
import { batchDelete, batchPut } from '#lib/db/batch.ts';
import { db } from '#lib/db/client.ts';
import { keys } from '#lib/db/keys.ts';
import { scanPage } from '#lib/db/scan.ts';
import { postItems } from '#lib/posts/changes.ts';
import { newPost } from '#lib/posts/post.ts';
import { summaryOf } from '#lib/posts/summarize.ts';
import type { ReindexProgress } from '#lib/search/rebuild-state.ts';
import { reindex, SWEEP_MARGIN_MS } from '#lib/search/reindex.ts';
import { isoTimestamp, nowMicros } from '#lib/time.ts';
import { childEnvironment } from '../../scripts/local/settings.ts';
import { createPost, unique } from '../support/api.ts';
import { runAdmin, type CliResult } from '../support/admin-cli.ts';
import { useApi } from '../support/fixture.ts';
import { nextLink } from '../support/link.ts';
import { invariantProblems, scanTable, SEARCH_INDEX } from './reliability/table.ts';

/** The problems of the search index among the table's invariants (the restored posts bypass the counters, as a restore's do). */
const indexProblems = async () => invariantProblems(await scanTable(api.table)).filter((problem) => problem.startsWith(SEARCH_INDEX));

// The operator's rebuild of the search index (`npm run admin -- reindex`, lib/search/reindex.ts):
// from an emptied search table every published post is found again, and nothing else; postings
// no post needs are swept; an interrupted rebuild resumes; and the API keeps serving correct
// searches while it runs.

const api = useApi({ users: ['alice', 'bob'] });
const { alice, bob } = api.users;

function admin(args: string[]): Promise<CliResult> {
  return runAdmin(args, childEnvironment({ TABLE_NAME: api.table }));
}

/** Every item of the search table, but the rebuild's state. */
async function emptySearchTable(): Promise<void> {
  const table = searchTableOf(api.table);
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await scanPage({ table, attributes: ['PK', 'SK'], consistent: true }, startKey);
    await batchDelete(
      page.items.map((item) => ({ PK: String(item.PK), SK: String(item.SK) })),
      table,
    );
    startKey = page.next;
  } while (startKey);
}

const slugsOf = (body: unknown) => (body as { slug: string }[]).map((post) => post.slug);

/** Every post a search finds, following its Links. */
async function found(q: string, as = bob): Promise<string[]> {
  let response = await as.api.get('/posts', { query: { q, page_size: '100' } });
  expect(response.status).toBe(200);
  const slugs = slugsOf(response.body);
  for (let link = nextLink(response); link; link = nextLink(response)) {
    response = await as.api.get(link);
    slugs.push(...slugsOf(response.body));
  }
  return slugs.sort();
}

/** `count` posts by alice with `word`, published or drafts, four at a time (the races of one author's writes are concurrency.test.ts's). */
async function posts(word: string, count: number, publish: boolean): Promise<string[]> {
  const slugs: string[] = [];
  for (let from = 0; from < count; from += 4) {
    const batch = Array.from({ length: Math.min(4, count - from) }, (_, i) =>
      createPost(alice.api, { title: `Indexed ${from + i} ${word}`, description: `plover ${word} dunlin`, publish: String(publish) }),
    );
    slugs.push(...(await Promise.all(batch)).map((post: { slug: string }) => post.slug));
  }
  return slugs;
}

/**
 * `count` posts by alice with `word` as a restore from a backup writes them: straight into the
 * table, an hour old (no search finds them as just written: only the index does).
 */
async function restored(word: string, count: number, publish: boolean, kind = 'restored'): Promise<string[]> {
  const hourAgo = nowMicros() - 3_600_000_000;
  const seeded = Array.from({ length: count }, (_, i) =>
    newPost(
      { userId: alice.id, username: alice.username, token: '' },
      { title: `${kind} ${i} ${word}`, description: `plover ${word} dunlin`, publish },
      { slug: `${kind}-${i}-${word}`, slugBase: `${kind}-${i}-${word}` },
      [],
      isoTimestamp(hourAgo + i),
    ),
  );
  await batchPut(seeded.flatMap((post) => postItems(post, summaryOf(post))));
  return seeded.map((post) => post.slug);
}

describe('npm run admin -- reindex', () => {
  it('rebuilds an emptied index: every published post is found again, no draft and no deleted post, exactly the postings they need', async () => {
    const word = unique('rebuilt').replaceAll('-', '').toLowerCase();
    const published = await restored(word, 30, true);
    const drafts = await restored(word, 4, false, 'draft');
    await api.streams!.caughtUp();
    const deleted = published.splice(0, 3);
    for (const slug of deleted) expect((await alice.api.delete(`/posts/detail/${slug}`)).status).toBe(204);
    await api.streams!.caughtUp();
    expect(await found(word)).toEqual([...published].sort());

    await emptySearchTable();
    expect(await found(word)).toEqual([]);

    const run = await admin(['reindex', '--writes-per-second', '5000']);
    expect(run.stderr).toContain('Done:');
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^Rebuilt the search index of table \S+ \(in \S+-search\): \d+ posts, [\d,]+ postings written, 0 stale ones deleted\.\n$/);
    expect(await found(word)).toEqual([...published].sort());
    expect(await found(word, alice)).toEqual([...published].sort());
    const own = await alice.api.get('/posts/me', { query: { q: word, page_size: '100', publish: 'false' } });
    expect(slugsOf(own.body).sort()).toEqual([...drafts].sort());
    expect(await indexProblems()).toEqual([]);
  });

  it('sweeps what no post needs (a term a post lost, a post gone, an older layout), keeping what the consumer writes meanwhile', async () => {
    const word = unique('swept').replaceAll('-', '').toLowerCase();
    const [slug] = await posts(word, 1, true);
    await api.streams!.caughtUp();
    const post = (await alice.api.get(`/posts/detail/${slug}`)).body as { created: string };
    const table = searchTableOf(api.table);
    const old = Date.now() - 2 * SWEEP_MARGIN_MS;
    const stale = [
      {
        ...keys.posting('zz', post.created, '00000000-0000-4000-8000-00000000dead'),
        slug: 'gone',
        author: 'alice',
        author_id: alice.id,
        text_version: 1,
        written_at: old,
      },
      { PK: 'WORD#p', SK: `plover#${slug}`, post_id: 'x' },
    ];
    for (const item of stale) await db().send(new PutCommand({ TableName: table, Item: item }));

    // A posting the consumer writes while the rebuild sweeps: it must stay.
    let written = false;
    const fresh = {
      ...keys.posting('zzfresh', post.created, '00000000-0000-4000-8000-00000000beef'),
      slug: 'x',
      author: 'alice',
      author_id: 1,
      text_version: 1,
    };
    const done = await reindex({
      writesPerSecond: 5_000,
      restart: true,
      onProgress: (progress) => {
        if (progress.phase === 'sweep' && !written) {
          written = true;
          void db().send(new PutCommand({ TableName: table, Item: { ...fresh, written_at: Date.now() } }));
        }
      },
    });
    expect(done.postingsDeleted).toBeGreaterThanOrEqual(2);
    const left = await scanTable(api.table);
    const has = (key: { PK: string; SK: string }) => left.some((item) => item.PK === key.PK && item.SK === key.SK);
    for (const item of stale) expect(has(item), item.PK).toBe(false);
    expect(has(fresh)).toBe(true);
    await batchDelete([{ PK: fresh.PK, SK: fresh.SK }], table);
    expect(await found(word)).toEqual([slug]);
  });

  it('resumes a rebuild that stopped where it stopped, and --restart starts over', async () => {
    const word = unique('resumed').replaceAll('-', '').toLowerCase();
    const published = await posts(word, 12, true);
    await api.streams!.caughtUp();
    await emptySearchTable();

    const seen: ReindexProgress[] = [];
    await expect(
      reindex({
        writesPerSecond: 5_000,
        restart: true,
        pageSize: 5,
        onProgress: (progress) => {
          seen.push(progress);
          if (progress.phase === 'put' && progress.posts >= 10) throw new Error('stopped');
        },
      }),
    ).rejects.toThrow('stopped');
    const stoppedAt = seen.at(-1)!;
    expect(stoppedAt.cursor).toBeDefined();

    const resumed: ReindexProgress[] = [];
    const done = await reindex({ writesPerSecond: 5_000, pageSize: 5, onProgress: (progress) => resumed.push(progress) });
    expect(resumed[0]).toMatchObject({ phase: 'put', started: stoppedAt.started, posts: stoppedAt.posts });
    expect(done.phase).toBe('done');
    expect(done.posts).toBe(done.total);
    expect(await found(word)).toEqual([...published].sort());

    const again = await reindex({ writesPerSecond: 5_000, restart: true });
    expect(again.started).toBeGreaterThan(done.started);
    expect(again.posts).toBe(again.total);
  });

  it('keeps searches correct while it runs beside writes: no draft, no deleted post; complete once it ends', async () => {
    const word = unique('busy').replaceAll('-', '').toLowerCase();
    const published = await posts(word, 20, true);
    const [draft] = await posts(word, 1, false);
    await api.streams!.caughtUp();
    await emptySearchTable();

    const running = reindex({ writesPerSecond: 200, restart: true, pageSize: 10 });
    const removed = published.pop()!;
    const [added] = await Promise.all([
      posts(word, 1, true),
      alice.api.delete(`/posts/detail/${removed}`),
      alice.api.put(`/posts/detail/${draft}`, { json: { title: `Still a draft ${word}` } }),
    ]);
    let searches = 0;
    for (let done = false; !done; searches++) {
      done = await Promise.race([running.then(() => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 200))]);
      const shown = await found(word);
      expect(shown).not.toContain(draft);
      expect(shown).not.toContain(removed);
    }
    expect(searches).toBeGreaterThan(1);
    await api.streams!.caughtUp();
    expect(await found(word)).toEqual([...published, ...added!].sort());
    expect(await indexProblems()).toEqual([]);
  });

  it('has the consumer write every term of a post renamed while a rebuild runs (the scan may have passed its new key)', async () => {
    const word = unique('moved').replaceAll('-', '').toLowerCase();
    const [draft] = await posts(word, 1, false);
    await api.streams!.caughtUp();
    // A rebuild in its put step whose scan missed the post: none of its postings are there.
    const table = searchTableOf(api.table);
    const postings = await scanPage({
      table,
      attributes: ['PK', 'SK'],
      consistent: true,
      filter: { expression: '#slug = :slug', names: { '#slug': 'slug' }, values: { ':slug': draft } },
    });
    expect(postings.next).toBeUndefined();
    expect(postings.items.length).toBeGreaterThan(5);
    await batchDelete(
      postings.items.map((item) => ({ PK: String(item.PK), SK: String(item.SK) })),
      table,
    );
    const midway: ReindexProgress = { phase: 'put', started: Date.now(), total: 1, posts: 0, postingsWritten: 0, postingsDeleted: 0 };
    await db().send(new PutCommand({ TableName: table, Item: { ...keys.reindexState(), progress: midway } }));

    // Renamed (a draft's title edit moves its items to a new slug): its new text's every term, not only those that changed.
    const renamed = await alice.api.put(`/posts/detail/${draft}`, { json: { title: `Renamed ${word}` } });
    expect(renamed.status).toBe(200);
    expect(renamed.body.slug).not.toBe(draft);
    await api.streams!.caughtUp();
    expect(await indexProblems()).toEqual([]);

    // The rebuild resumes and ends as any other.
    expect((await reindex({ writesPerSecond: 5_000 })).phase).toBe('done');
    expect(await indexProblems()).toEqual([]);
  });
});
