import { AccountError } from '#lib/auth/account.ts';
import { createUser } from '#lib/auth/create-account.ts';
import { dynamodbEndpoint, tableName } from '#lib/config.ts';
import { getPost } from '#lib/posts/get.ts';
import { setFeatured } from '#lib/posts/feature.ts';
import { slugify } from '#lib/slugs/slugify.ts';
import { setModerator } from '#lib/auth/moderators.ts';
import { DEMO_MODERATOR, DEMO_TAGS, DEMO_USERS, demoPosts, type DemoPost } from './content.ts';

// `npm run seed`: fills the running local stack with demo data. Accounts and featured flags have
// no endpoint, so they are written with the same library code the admin CLI uses; tags, posts,
// profiles and visits go through the API, as a client would make them. Every step first checks
// what is there, so a second run adds nothing.

/** A problem the person running the command can fix; printed without a stack trace. */
export class SeedError extends Error {
  override name = 'SeedError';
}

export interface SeedOptions {
  /** Base URL of the API, e.g. http://127.0.0.1:3000/api/v1. */
  apiUrl: string;
  /** Progress lines; default: none. */
  progress?: (line: string) => void;
}

export interface SeedReport {
  users: { total: number; created: number };
  tags: { total: number; created: number };
  posts: { total: number; created: number; published: number; drafts: number; featured: number };
  visits: number;
  votes: number;
  favorites: number;
  comments: { total: number; created: number; posts: number };
  moderator: string;
  /** Problems that did not stop the run (e.g. a slug taken by someone else's post). */
  warnings: string[];
}

interface Answer {
  status: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the API's JSON, checked where used
  body: any;
}

async function call(apiUrl: string, method: string, path: string, options: { token?: string; json?: unknown } = {}): Promise<Answer> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (options.token) headers.Authorization = `Token ${options.token}`;
  if (options.json !== undefined) headers['Content-Type'] = 'application/json';
  let response: Response;
  try {
    response = await fetch(`${apiUrl}${path}`, {
      method,
      headers,
      ...(options.json !== undefined ? { body: JSON.stringify(options.json) } : {}),
    });
  } catch (error) {
    throw new SeedError(
      `The API does not answer at ${apiUrl} (${(error as Error).message}). Start the local stack with \`npm start\` (or set PORT or API_URL).`,
    );
  }
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}

/**
 * A request the comments' rate limit may refuse (429: a user writes at most COMMENTS_PER_MINUTE a
 * minute): sent again after the Retry-After it names.
 */
async function withinRateLimit(send: () => Promise<Answer>): Promise<Answer> {
  for (;;) {
    const answer = await send();
    if (answer.status !== 429) return answer;
    const wait = Number(/in (\d+) second/.exec(String(answer.body?.detail))?.[1] ?? 1);
    await new Promise((done) => setTimeout(done, Math.min(wait, 60) * 1000));
  }
}

function expectStatus(answer: Answer, wanted: number[], what: string): void {
  if (!wanted.includes(answer.status)) throw new SeedError(`${what} failed: ${answer.status} ${JSON.stringify(answer.body)}`);
}

/** Runs `work` on every item, at most `width` at a time. */
async function inParallel<T>(items: T[], width: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(width, items.length) }, async () => {
      while (next < items.length) await work(items[next++]!);
    }),
  );
}

export async function seed(options: SeedOptions): Promise<SeedReport> {
  const { apiUrl } = options;
  const progress = options.progress ?? (() => undefined);
  const warnings: string[] = [];
  const api = (method: string, path: string, extra?: { token?: string; json?: unknown }) => call(apiUrl, method, path, extra);

  const health = await api('GET', '/openapi.json');
  if (health.status !== 200) throw new SeedError(`${apiUrl} does not look like this API (GET /openapi.json answered ${health.status}).`);

  // Accounts: created with the admin CLI's code; each logs in through the API.
  progress('users');
  const tokens = new Map<string, string>();
  let usersCreated = 0;
  try {
    for (const user of DEMO_USERS) {
      let created = false;
      try {
        await createUser(user.username, user.password);
        created = true;
        usersCreated += 1;
      } catch (error) {
        if (!(error instanceof AccountError)) throw error;
      }
      const login = await api('POST', '/login', { json: { username: user.username, password: user.password } });
      if (login.status !== 200) {
        throw new SeedError(
          created
            ? `The API cannot log in "${user.username}", just created in table "${tableName()}" at ${dynamodbEndpoint()}: does the API use the same DynamoDB and TABLE_NAME?`
            : `The user "${user.username}" already exists with another password. Reset it with: npm run admin -- set-password --username ${user.username} --password '${user.password}'`,
        );
      }
      tokens.set(user.username, login.body.token as string);
      if (created) {
        const { display_name, location, about_me, website } = user;
        const profile = { display_name, location, about_me, website };
        expectStatus(await api('PUT', `/users/detail/${user.username}`, { token: login.body.token, json: profile }), [200], `Profile of ${user.username}`);
      }
    }
    const tokenOf = (username: string) => tokens.get(username)!;

    progress('tags');
    let tagsCreated = 0;
    for (const tag of DEMO_TAGS) {
      const answer = await api('POST', '/tags', { token: tokenOf(DEMO_USERS[0]!.username), json: tag });
      expectStatus(answer, [201, 409], `Tag "${tag.title}"`);
      if (answer.status === 201) tagsCreated += 1;
    }

    // Posts, in a fixed order (the newest-first list shows the last one first).
    progress('posts');
    const posts = demoPosts();
    const slugs = new Map<DemoPost, string>();
    let postsCreated = 0;
    for (const post of posts) {
      const slug = slugify(post.title);
      const existing = await getPost(slug);
      if (existing) {
        if (existing.author !== post.author)
          warnings.push(`The slug "${slug}" belongs to a post by "${existing.author}"; the demo post "${post.title}" was not created.`);
        else slugs.set(post, slug);
        continue;
      }
      const answer = await api('POST', '/posts', {
        token: tokenOf(post.author),
        json: {
          title: post.title,
          description: post.description,
          tags: post.tags.join(', '),
          keywords: post.keywords,
          meta_description: post.meta_description,
          publish: post.publish,
        },
      });
      expectStatus(answer, [201], `Post "${post.title}"`);
      slugs.set(post, answer.body.slug as string);
      postsCreated += 1;
    }

    progress('featured posts');
    for (const post of posts) {
      const slug = slugs.get(post);
      if (slug && post.featured) await setFeatured(slug, true);
    }

    // Each demo user's first view of a post counts once, so repeating these adds nothing.
    progress('visits');
    const visits = posts.flatMap((post) => {
      const slug = slugs.get(post);
      return slug && post.publish ? post.visitors.map((visitor) => ({ slug, visitor })) : [];
    });
    await inParallel(visits, 8, async ({ slug, visitor }) => {
      expectStatus(await api('GET', `/posts/detail/${slug}`, { token: tokenOf(visitor) }), [200], `A visit of ${slug}`);
    });

    // Votes and favorites: a vote the same way again and a favorite again change nothing.
    progress('votes and favorites');
    const reactions = posts.flatMap((post) => {
      const slug = slugs.get(post);
      if (!slug || !post.publish) return [];
      return [
        ...Object.entries(post.votes).map(([user, vote]) => ({ user, path: `/posts/detail/${slug}/vote`, json: { vote } as unknown })),
        ...post.favoriters.map((user) => ({ user, path: `/posts/detail/${slug}/favorite`, json: undefined as unknown })),
      ];
    });
    await inParallel(reactions, 8, async ({ user, path, json }) => {
      expectStatus(await api('POST', path, { token: tokenOf(user), ...(json ? { json } : {}) }), [200], `POST ${path} by ${user}`);
    });

    // An edit refreshes `modified`: once per edited post, while it still equals `created`.
    progress('edits');
    for (const post of posts) {
      const slug = slugs.get(post);
      if (!slug || !post.edited) continue;
      // Read from the table: a GET of the detail would count the author's visit.
      const current = await getPost(slug);
      if (!current || current.modified !== current.created) continue;
      expectStatus(await api('PUT', `/posts/detail/${slug}`, { token: tokenOf(post.author), json: { publish: true } }), [200], `Edit of "${post.title}"`);
    }

    // The moderator (an admin command, as set-moderator), then the comments: a post's threads and
    // their replies through the API, on the posts that have none yet; then a lock on one of them.
    progress('moderator and comments');
    await setModerator(DEMO_MODERATOR, true);
    let commentsCreated = 0;
    const commented = posts.filter((post) => slugs.has(post) && post.publish && post.comments.length > 0);
    for (const post of commented) {
      const path = `/posts/detail/${slugs.get(post)}/comments`;
      const existing = await api('GET', path, { token: tokenOf(post.author) });
      expectStatus(existing, [200], `Comments of "${post.title}"`);
      if (existing.body.length > 0) continue;
      for (const thread of post.comments) {
        const made = await withinRateLimit(() => api('POST', path, { token: tokenOf(thread.author), json: { body: thread.body } }));
        expectStatus(made, [201], `A comment on "${post.title}"`);
        commentsCreated += 1;
        for (const reply of thread.replies) {
          const answer = await withinRateLimit(() => api('POST', path, { token: tokenOf(reply.author), json: { body: reply.body, parent: made.body.id } }));
          expectStatus(answer, [201], `A reply on "${post.title}"`);
          commentsCreated += 1;
        }
      }
      if (post.commentsLocked) {
        expectStatus(
          await api('PUT', `/posts/detail/${slugs.get(post)}`, { token: tokenOf(post.author), json: { comments_locked: true } }),
          [200],
          `Locking "${post.title}"`,
        );
      }
    }

    const seeded = posts.filter((post) => slugs.has(post));
    return {
      users: { total: DEMO_USERS.length, created: usersCreated },
      tags: { total: DEMO_TAGS.length, created: tagsCreated },
      posts: {
        total: seeded.length,
        created: postsCreated,
        published: seeded.filter((post) => post.publish).length,
        drafts: seeded.filter((post) => !post.publish).length,
        featured: seeded.filter((post) => post.featured).length,
      },
      visits: visits.length,
      votes: reactions.filter((reaction) => reaction.json !== undefined).length,
      favorites: reactions.filter((reaction) => reaction.json === undefined).length,
      comments: {
        total: commented.reduce((sum, post) => sum + post.comments.reduce((n, thread) => n + 1 + thread.replies.length, 0), 0),
        created: commentsCreated,
        posts: commented.length,
      },
      moderator: DEMO_MODERATOR,
      warnings,
    };
  } finally {
    // Leave no tokens behind: the demo users log in again from the frontend.
    await Promise.all([...tokens.values()].map((token) => api('GET', '/logout', { token }).catch(() => undefined)));
  }
}

/** What the command prints: the counts, then the accounts (the same on every run). */
export function describeSeed(report: SeedReport, apiUrl: string): string {
  const width = Math.max(...DEMO_USERS.map((user) => user.username.length), 'username'.length) + 2;
  const { users, tags, posts } = report;
  return [
    `Demo data in table "${tableName()}" (DynamoDB ${dynamodbEndpoint() ?? 'AWS'}), through the API at ${apiUrl}:`,
    `  users   ${users.total} (${users.created} new)`,
    `  tags    ${tags.total} (${tags.created} new)`,
    `  posts   ${posts.total} (${posts.created} new): ${posts.published} published, ${posts.drafts} drafts (seen only by their authors), ${posts.featured} featured`,
    `  visits  ${report.visits} by the demo users (a user's first view of a post counts once)`,
    `  votes   ${report.votes}, favorites ${report.favorites}, by the demo users`,
    `  comments ${report.comments.total} (${report.comments.created} new) on ${report.comments.posts} posts, replies included; ${report.moderator} is a moderator`,
    ...report.warnings.map((warning) => `  warning: ${warning}`),
    '',
    'Log in as any of these users:',
    `  ${'username'.padEnd(width)}password`,
    ...DEMO_USERS.map((user) => `  ${user.username.padEnd(width)}${user.password}`),
    '',
    `Docs page: ${apiUrl}/docs`,
    `Example:   curl -s -X POST ${apiUrl}/login -H 'Content-Type: application/json' -d '{"username": "${DEMO_USERS[0]!.username}", "password": "${DEMO_USERS[0]!.password}"}'`,
  ].join('\n');
}
