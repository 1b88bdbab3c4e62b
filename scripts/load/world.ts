import { randomUUID } from 'node:crypto';
import { AccountError } from '#lib/auth/account.ts';
import { createUser } from '#lib/auth/create-account.ts';
import { setFeatured } from '#lib/posts/feature.ts';
import { fetchInit } from '../local/client-request.ts';
import { randomSource } from '../seed/content.ts';
import { LIST_PAGE_SIZE } from './mix.ts';

// The data `npm run load` drives its workload over: users with tokens, tags and published posts,
// made as a client would (accounts and featured flags, which have no endpoint, with the admin
// CLI's library code, as `npm run seed` does). Names carry a run id, so a run against a stack
// that already holds data (`--url`) adds its own beside it.

export interface LoadUser {
  username: string;
  password: string;
  token: string;
}

export interface LoadPost {
  slug: string;
  /** Index of its author in `World.users`. */
  author: number;
}

export interface World {
  users: LoadUser[];
  tags: { title: string; slug: string }[];
  /** Oldest first: posts created during the run are pushed at the end. */
  posts: LoadPost[];
  /** `user#post` (indexes) of the visits made or under way: a first visit is never sent twice. */
  visited: Set<string>;
  /** The visits answered, for repeat visits. */
  visits: [user: number, post: number][];
  /** The path (under the API prefix) of page 2 of the front list, from page 1's `Link`. */
  frontPage2?: string;
  /** Words the posts carry, most frequent first: the `q` of searches. */
  searchWords: readonly string[];
}

/** A small deterministic generator (the seed's mulberry32): the same seed makes the same data and mix. */
export const seededRandom = randomSource;

/** An index below `count`, most often a high one: the newest posts get most of the traffic. */
export function skewedIndex(random: () => number, count: number): number {
  return count - 1 - Math.floor(count * random() ** 3);
}

const TOPICS = ['Serverless', 'Lambda', 'DynamoDB', 'TypeScript', 'Frontend', 'Testing', 'Performance', 'Security', 'APIs', 'Career', 'Databases', 'Design'];

// A site's words: a few very frequent ones, then a long tail (each picked with a falling weight).
const VOCABULARY = (
  'the and for with this that from your about when how what why build deploy serverless function table index query ' +
  'request response latency cache cost scale partition stream event queue retry token login session test mock ' +
  'local cloud region account limit throttle capacity read write item key value list page cursor sort search ' +
  'word post author tag vote favorite visit count metric alarm trace log bundle import module package type ' +
  'schema contract error status timeout backoff jitter budget shard merge lambda dynamodb gateway route stage ' +
  'deploy rollback canary feature flag release version branch review refactor pattern anti design model ' +
  'migration backup restore encryption secret policy role permission audit compliance privacy frontend render'
).split(' ');

/** The searched words: frequent, middling and rare ones of the vocabulary. */
export const SEARCH_WORDS = ['serverless', 'latency', 'partition', 'cursor', 'throttle', 'jitter', 'canary', 'privacy'] as const;

function words(random: () => number, count: number): string {
  return Array.from({ length: count }, () => VOCABULARY[Math.floor(VOCABULARY.length * random() ** 2)]!).join(' ');
}

/** About 1.5 KB of text: a typical community post. */
export function postBody(random: () => number): string {
  return Array.from({ length: 6 }, () => `${words(random, 40)}.`).join('\n\n');
}

export function postTitle(random: () => number, n: number): string {
  return `${words(random, 5)} ${n}`.replace(/^./, (c) => c.toUpperCase());
}

/** 1 to 3 tag titles, the first topics more often. */
export function postTags(random: () => number, tags: World['tags']): string {
  const count = 1 + Math.floor(random() * 3);
  const picked = new Set(Array.from({ length: count }, () => tags[Math.floor(tags.length * random() ** 2)]!.title));
  return [...picked].join(', ');
}

export interface SeedOptions {
  apiUrl: string;
  users: number;
  posts: number;
  random: () => number;
  progress: (line: string) => void;
}

async function call(
  url: string,
  init: { method?: string; token?: string; form?: Record<string, string>; json?: unknown } = {},
): Promise<{ status: number; body: unknown; headers: Headers }> {
  const response = await fetch(url, fetchInit(init));
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as unknown) : null, headers: response.headers };
}

function expect(answer: { status: number; body: unknown }, status: number, what: string): void {
  if (answer.status !== status) throw new Error(`seeding: ${what} answered ${answer.status} ${JSON.stringify(answer.body)}`);
}

/** Runs `work` on every index below `count`, `width` at a time. */
async function inParallel(count: number, width: number, work: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(width, count) }, async () => {
      while (next < count) await work(next++);
    }),
  );
}

/** The path under the API prefix of a `Link: <url>; rel="next"` header, if any. */
export function nextLinkPath(link: string | null, apiUrl: string): string | undefined {
  const match = link?.match(/<([^>]+)>\s*;\s*rel="next"/);
  if (!match) return undefined;
  const url = new URL(match[1]!, apiUrl);
  const prefix = new URL(apiUrl).pathname;
  return `${url.pathname.slice(prefix.length)}${url.search}`;
}

export async function seedWorld(options: SeedOptions): Promise<World> {
  const { apiUrl, random, progress } = options;
  const run = randomUUID().slice(0, 6);
  progress(`${options.users} users`);
  const users: LoadUser[] = [];
  await inParallel(options.users, 4, async (i) => {
    const username = `load${run}u${i}`;
    const password = `load password ${run}`;
    try {
      await createUser(username, password);
    } catch (error) {
      if (!(error instanceof AccountError)) throw error;
    }
    const login = await call(`${apiUrl}/login`, { method: 'POST', json: { username, password } });
    expect(login, 200, `login of ${username}`);
    users[i] = { username, password, token: (login.body as { token: string }).token };
  });

  progress(`${TOPICS.length} tags`);
  const tags: World['tags'] = [];
  for (const topic of TOPICS) {
    const title = `${topic} ${run}`;
    const answer = await call(`${apiUrl}/tags`, { method: 'POST', token: users[0]!.token, form: { title } });
    expect(answer, 201, `tag ${title}`);
    tags.push({ title, slug: (answer.body as { slug: string }).slug });
  }

  progress(`${options.posts} posts`);
  const posts: LoadPost[] = [];
  // Made one by one in a fixed order, so that "newest" is the order of `posts`; drafts (1 in 20)
  // are listed on their authors' own lists only.
  for (let i = 0; i < options.posts; i++) {
    const author = Math.floor(random() * users.length);
    const publish = random() >= 0.05;
    const answer = await call(`${apiUrl}/posts`, {
      method: 'POST',
      token: users[author]!.token,
      form: { title: postTitle(random, i), description: postBody(random), tags: postTags(random, tags), publish: String(publish) },
    });
    expect(answer, 201, 'a post');
    if (publish) posts.push({ slug: (answer.body as { slug: string }).slug, author });
  }
  progress('featured posts (1 in 10)');
  for (let i = 0; i < posts.length; i += 10) await setFeatured(posts[i]!.slug, true);

  const world: World = { users, tags, posts, visited: new Set(), visits: [], searchWords: SEARCH_WORDS };
  const visits = Math.min(posts.length, 200);
  progress(`${visits} visits, for repeat visits`);
  await inParallel(visits, 8, async () => {
    const pair: [number, number] = [Math.floor(random() * users.length), skewedIndex(random, posts.length)];
    const key = `${pair[0]}#${pair[1]}`;
    if (world.visited.has(key)) return;
    world.visited.add(key);
    expect(await call(`${apiUrl}/posts/detail/${posts[pair[1]]!.slug}`, { token: users[pair[0]]!.token }), 200, 'a visit');
    world.visits.push(pair);
  });

  const front = await call(`${apiUrl}/posts?page_size=${LIST_PAGE_SIZE}`, { token: users[0]!.token });
  const page2 = nextLinkPath(front.headers.get('link'), apiUrl);
  if (page2) world.frontPage2 = page2;
  return world;
}
