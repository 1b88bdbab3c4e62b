import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEMO_MODERATOR, DEMO_TAGS, DEMO_USERS, demoPosts } from '../../scripts/seed/content.ts';
import type { ApiClient } from '../support/api.ts';
import { useApi } from '../support/fixture.ts';

// `npm run seed`, run twice as the command it is against a fresh table and the local server:
// the first run fills it, the second adds nothing and prints the same accounts.

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const run = promisify(execFile);

const api = useApi();
const outputs: string[] = [];

async function seedCommand(): Promise<string> {
  const { stdout } = await run(process.execPath, ['--import', 'tsx', 'scripts/seed.ts'], {
    cwd: ROOT,
    env: { ...process.env, API_URL: api.url, DYNAMODB_ENDPOINT: process.env.DYNAMODB_ENDPOINT, TABLE_NAME: api.table },
    timeout: 120_000,
  });
  return stdout;
}

const accounts = (output: string) => output.slice(output.indexOf('Log in as'));

beforeAll(async () => {
  outputs.push(await seedCommand());
  outputs.push(await seedCommand());
}, 240_000);

async function login(username: string, password: string): Promise<ApiClient> {
  const response = await api.client().post('/login', { json: { username, password } });
  expect(response.status, username).toBe(200);
  return api.client(response.body.token);
}

describe('npm run seed', () => {
  const posts = demoPosts();
  const published = posts.filter((post) => post.publish);

  it('reports what it created, then that a second run created nothing', () => {
    expect(outputs[0]).toContain(`users   ${DEMO_USERS.length} (${DEMO_USERS.length} new)`);
    expect(outputs[0]).toContain(`tags    ${DEMO_TAGS.length} (${DEMO_TAGS.length} new)`);
    expect(outputs[0]).toContain('posts   100 (100 new)');
    expect(outputs[1]).toContain(`users   ${DEMO_USERS.length} (0 new)`);
    expect(outputs[1]).toContain(`tags    ${DEMO_TAGS.length} (0 new)`);
    expect(outputs[1]).toContain('posts   100 (0 new)');
    expect(outputs[1]).not.toContain('warning');
  });

  it('prints the same users and passwords on every run, and they log in', async () => {
    expect(accounts(outputs[1]!)).toBe(accounts(outputs[0]!));
    for (const user of DEMO_USERS) {
      expect(outputs[0]).toMatch(new RegExp(`^  ${user.username} +${user.password}$`, 'm'));
      await login(user.username, user.password);
    }
  });

  it('leaves exactly the demo users, tags, posts, featured posts and visits after two runs', async () => {
    const ada = await login(DEMO_USERS[0]!.username, DEMO_USERS[0]!.password);
    const users = await ada.get('/users');
    expect(users.body.map((user: { user: string }) => user.user).sort()).toEqual(DEMO_USERS.map((user) => user.username).sort());
    const profile = users.body.find((user: { user: string }) => user.user === 'ada');
    expect(profile).toMatchObject({ display_name: 'Ada L.', website: 'https://ada.example.com' });

    const tags = await ada.get('/tags');
    expect(tags.body.map((tag: { title: string }) => tag.title).sort()).toEqual(DEMO_TAGS.map((tag) => tag.title).sort());
    const tagged = (title: string) => published.filter((post) => post.tags.includes(title)).length;
    for (const tag of tags.body as { title: string; total_posts: number }[]) expect(tag.total_posts, tag.title).toBe(tagged(tag.title));

    const list = await ada.get('/posts', { query: { page_size: '100' } });
    expect(list.body).toHaveLength(published.length);
    expect(list.headers.get('link')).toBeNull();
    expect(list.body[0].title).toBe(published.at(-1)!.title); // newest first
    expect(list.body[0].description).toMatch(/^## .+\n[\s\S]*```/); // Markdown
    const visitors = (list.body as { total_visitors: number }[]).reduce((sum, post) => sum + post.total_visitors, 0);
    expect(visitors).toBe(published.reduce((sum, post) => sum + post.visitors.length, 0));
    expect(visitors).toBeGreaterThan(50);

    const featured = await ada.get('/posts', { query: { sort: 'featured' } });
    expect(featured.body.map((post: { title: string }) => post.title).sort()).toEqual(
      posts
        .filter((post) => post.featured)
        .map((post) => post.title)
        .sort(),
    );
    expect(featured.body.length).toBeGreaterThan(5);

    const views = await ada.get('/posts', { query: { sort: 'views', page_size: '1' } });
    expect(views.body[0].total_visitors).toBe(Math.max(...published.map((post) => post.visitors.length)));
  });

  it('gives a tag and an author more posts than a small page, and every user drafts of their own', async () => {
    const ada = await login(DEMO_USERS[0]!.username, DEMO_USERS[0]!.password);
    const LINK = /^<([^>]+)>; rel="next"$/;
    /** Every post of a list, five a page, following the Links. */
    async function walk(path: string): Promise<{ pages: number; titles: string[] }> {
      let response = await ada.get(path, { query: { page_size: '5' } });
      const titles: string[] = [];
      let pages = 0;
      for (;;) {
        expect(response.status, path).toBe(200);
        expect(response.body.length, path).toBeLessThanOrEqual(5);
        titles.push(...response.body.map((post: { title: string }) => post.title));
        pages += 1;
        const link = LINK.exec(response.headers.get('link') ?? '')?.[1];
        if (!link) return { pages, titles };
        response = await ada.get(link);
      }
    }

    // docs/clients.md's examples ("Demo data"): GET /posts/tagged/serverless?page_size=5 and /posts/author/ada?page_size=5.
    const serverless = await walk('/posts/tagged/serverless');
    expect(serverless.pages).toBeGreaterThan(1);
    expect(serverless.titles.sort()).toEqual(
      published
        .filter((post) => post.tags.includes('Serverless'))
        .map((post) => post.title)
        .sort(),
    );
    const byAda = await walk('/posts/author/ada');
    expect(byAda.pages).toBeGreaterThan(1);
    expect(byAda.titles.sort()).toEqual(
      published
        .filter((post) => post.author === 'ada')
        .map((post) => post.title)
        .sort(),
    );

    for (const user of DEMO_USERS) {
      const client = await login(user.username, user.password);
      const own = posts.filter((post) => post.author === user.username);
      const drafts = own.filter((post) => !post.publish);
      expect(drafts.length, user.username).toBeGreaterThan(0);
      expect(own.length - drafts.length, user.username).toBeGreaterThan(5);
      const mine = await client.get('/posts/me');
      expect(mine.status).toBe(200);
      expect(mine.body.map((post: { title: string }) => post.title).sort(), user.username).toEqual(own.map((post) => post.title).sort());
      const onlyDrafts = await client.get('/posts/me', { query: { publish: 'false' } });
      expect(onlyDrafts.body.map((post: { title: string }) => post.title).sort(), user.username).toEqual(drafts.map((post) => post.title).sort());
    }
  });

  it('gives votes and favorites, so that the five sorts each list something different', async () => {
    const ada = await login(DEMO_USERS[0]!.username, DEMO_USERS[0]!.password);
    const list = (await ada.get('/posts', { query: { page_size: '100' } })).body as {
      title: string;
      rating_likes: number;
      rating_dislikes: number;
      total_favorites: number;
    }[];
    const ups = published.reduce((sum, post) => sum + Object.values(post.votes).filter((vote) => vote === 'up').length, 0);
    const downs = published.reduce((sum, post) => sum + Object.values(post.votes).filter((vote) => vote === 'down').length, 0);
    expect(list.reduce((sum, post) => sum + post.rating_likes, 0)).toBe(ups);
    expect(list.reduce((sum, post) => sum + post.rating_dislikes, 0)).toBe(downs);
    expect(list.reduce((sum, post) => sum + post.total_favorites, 0)).toBe(published.reduce((sum, post) => sum + post.favoriters.length, 0));
    const firsts = new Set<string>();
    for (const sort of ['newest', 'featured', 'views', 'votes', 'active']) {
      const page = await ada.get('/posts', { query: { sort, page_size: '5' } });
      firsts.add(page.body.map((post: { title: string }) => post.title).join('|'));
    }
    expect(firsts.size).toBe(5);
    const favorites = await ada.get('/users/detail/ada/favorites');
    expect(favorites.body.length).toBe(published.filter((post) => post.favoriters.includes('ada')).length);
  });

  it('writes comments with replies on a dozen posts, once, locks one, and makes a moderator', async () => {
    const commented = published.filter((post) => post.comments.length > 0);
    const total = commented.reduce((sum, post) => sum + post.comments.reduce((n, thread) => n + 1 + thread.replies.length, 0), 0);
    expect(commented.length).toBeGreaterThanOrEqual(10);
    expect(outputs[0]).toContain(`comments ${total} (${total} new) on ${commented.length} posts`);
    expect(outputs[1]).toContain(`comments ${total} (0 new) on ${commented.length} posts`);
    expect(outputs[0]).toContain(`${DEMO_MODERATOR} is a moderator`);
    const moderator = DEMO_USERS.find((user) => user.username === DEMO_MODERATOR)!;
    const client = await login(moderator.username, moderator.password);
    expect((await client.get('/auth')).body.is_moderator).toBe(true);
    const list = (await client.get('/posts', { query: { page_size: '100' } })).body as { title: string; total_comments: number; comments_locked: boolean }[];
    expect(list.reduce((sum, post) => sum + post.total_comments, 0)).toBe(total);
    expect(list.filter((post) => post.comments_locked).map((post) => post.title)).toEqual(
      published.filter((post) => post.commentsLocked).map((post) => post.title),
    );
    const [first] = commented;
    const post = list.find((listed) => listed.title === first!.title)!;
    expect(post.total_comments).toBe(first!.comments.reduce((n, thread) => n + 1 + thread.replies.length, 0));
  });

  it('makes drafts that only their authors see', async () => {
    const draft = posts.find((post) => !post.publish)!;
    const author = DEMO_USERS.find((user) => user.username === draft.author)!;
    const other = DEMO_USERS.find((user) => user.username !== draft.author)!;
    const slug = draft.title
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/(^-|-$)/g, '');
    expect((await (await login(author.username, author.password)).get(`/posts/detail/${slug}`)).body).toMatchObject({ publish: false, author: draft.author });
    expect((await (await login(other.username, other.password)).get(`/posts/detail/${slug}`)).status).toBe(404);
  });
});
