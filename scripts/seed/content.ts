// The demo data of `npm run seed`: a few users, tags, and a hundred posts with Markdown bodies.
// Everything is derived from fixed lists and a seeded random generator, so every run (and every
// machine) produces the same data.

export interface DemoUser {
  username: string;
  password: string;
  display_name: string;
  location: string;
  about_me: string;
  website: string;
}

export const DEMO_USERS: readonly DemoUser[] = [
  {
    username: 'ada',
    password: 'ada-demo-password',
    display_name: 'Ada L.',
    location: 'London',
    about_me: 'Writes about **data modelling** and tests.',
    website: 'https://ada.example.com',
  },
  {
    username: 'grace',
    password: 'grace-demo-password',
    display_name: 'Grace H.',
    location: 'Arlington',
    about_me: 'Compilers, debugging, and the occasional moth.',
    website: 'https://grace.example.com',
  },
  {
    username: 'linus',
    password: 'linus-demo-password',
    display_name: 'Linus T.',
    location: 'Portland',
    about_me: 'Performance and plain text.',
    website: 'https://linus.example.com',
  },
  {
    username: 'margaret',
    password: 'margaret-demo-password',
    display_name: 'Margaret H.',
    location: 'Boston',
    about_me: 'Reliability first; *then* features.',
    website: 'https://margaret.example.com',
  },
];

export interface DemoTag {
  title: string;
  slug?: string;
}

export const DEMO_TAGS: readonly DemoTag[] = [
  { title: 'Serverless' },
  { title: 'AWS Lambda', slug: 'lambda' },
  { title: 'DynamoDB' },
  { title: 'TypeScript' },
  { title: 'Frontend' },
  { title: 'Testing' },
  { title: 'Performance' },
  { title: 'Security' },
  { title: 'APIs' },
  { title: 'Career' },
];

const ANGLES = [
  'A gentle introduction to',
  'Ten mistakes with',
  'What I learned from',
  'Benchmarking',
  'Debugging',
  'Testing',
  'Scaling',
  'Securing',
  'The case against',
  'A year of',
] as const;

const TOPICS: readonly { name: string; tags: readonly string[]; code: string; language: string }[] = [
  { name: 'DynamoDB single-table design', tags: ['DynamoDB', 'Serverless'], language: 'ts', code: "const key = { PK: `POST#${slug}`, SK: 'POST' };" },
  {
    name: 'Lambda cold starts',
    tags: ['AWS Lambda', 'Performance'],
    language: 'ts',
    code: "export const handler = async () => ({ statusCode: 200, body: 'ok' });",
  },
  {
    name: 'HTTP APIs on API Gateway',
    tags: ['APIs', 'Serverless'],
    language: 'sh',
    code: 'curl -s https://api.example.com/api/v1/posts -H "Authorization: Token $TOKEN"',
  },
  { name: 'TypeScript strict mode', tags: ['TypeScript'], language: 'ts', code: 'function first<T>(items: T[]): T | undefined {\n  return items[0];\n}' },
  { name: 'Markdown rendering', tags: ['Frontend'], language: 'js', code: 'element.innerHTML = render(post.description); // sanitize first!' },
  {
    name: 'CORS in the browser',
    tags: ['Frontend', 'Security', 'APIs'],
    language: 'js',
    code: "await fetch(url, { headers: { Authorization: 'Token ' + token } });",
  },
  {
    name: 'token authentication',
    tags: ['Security', 'APIs'],
    language: 'http',
    code: 'GET /api/v1/auth HTTP/1.1\nAuthorization: Token 0123456789abcdef0123456789abcdef01234567',
  },
  {
    name: 'infinite scroll with Link headers',
    tags: ['Frontend', 'APIs'],
    language: 'js',
    code: "const next = response.headers.get('Link')?.match(/<([^>]+)>/)?.[1];",
  },
  {
    name: 'OpenAPI-first development',
    tags: ['APIs', 'TypeScript', 'Testing'],
    language: 'sh',
    code: 'npx openapi-typescript http://127.0.0.1:3000/api/v1/openapi.json -o api.d.ts',
  },
  { name: 'on-call for serverless apps', tags: ['Serverless', 'Career'], language: 'sh', code: 'aws logs tail /aws/lambda/PostsList --follow --format short' },
];

/** mulberry32: a small deterministic generator. */
export function randomSource(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface DemoPost {
  author: string;
  title: string;
  description: string;
  tags: string[];
  keywords: string | null;
  meta_description: string | null;
  publish: boolean;
  featured: boolean;
  /** Users (other than the author) who open the post. */
  visitors: string[];
  /** Votes by users other than the author (sort=votes differs from sort=views). */
  votes: Record<string, 'up' | 'down'>;
  /** Users who keep the post as a favorite (the author may too). */
  favoriters: string[];
  /** Edited once after its creation, so that sort=active differs from sort=newest. */
  edited: boolean;
  /** Its threads (v1.3), oldest first, each with its replies; none on most posts. */
  comments: DemoThread[];
  /** Its author locks its comments once they are written. */
  commentsLocked: boolean;
}

export interface DemoComment {
  author: string;
  body: string;
}

export interface DemoThread extends DemoComment {
  replies: DemoComment[];
}

/** The moderator among the demo users (`set-moderator`): reports and the moderation page need one. */
export const DEMO_MODERATOR = 'margaret';

const COMMENT_LINES = [
  'Thanks, this is exactly the checklist I was looking for.',
  'Did you measure the cold starts before and after?',
  'We hit the same problem last month; the **second** fix worked for us.',
  'Small nit: the table in the third section has the steps in another order.',
  'How does this hold up with ten times the traffic?',
  'Bookmarked. The part about the edges is so true.',
  'I would add one step: write down what you decided *not* to do.',
  'Great write-up, and the numbers make it convincing.',
];
const REPLY_LINES = [
  'Yes: about a third faster, details in the follow-up.',
  'Good catch, fixed.',
  'Same here, thanks for confirming.',
  'It holds; the limit is elsewhere, see the scale notes.',
  'Agreed, adding it.',
];

const SENTENCES = [
  'The short version: measure first, then change one thing at a time.',
  'Most of the surprises came from the edges, not from the happy path.',
  'Nothing here needs a framework; the platform already does the heavy lifting.',
  'I kept a log of every experiment, and the numbers below come from it.',
  'If you only read one section, make it the checklist at the end.',
  'The documentation is right, but it is easy to read it the wrong way.',
  'We rolled this out to a small share of traffic before going all in.',
  'Your mileage will vary with payload sizes and concurrency.',
];

function pick<T>(random: () => number, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)]!;
}

function description(random: () => number, angle: string, topic: (typeof TOPICS)[number], n: number): string {
  const paragraphs = [0, 1, 2].map(() => [pick(random, SENTENCES), pick(random, SENTENCES)].join(' '));
  const steps = ['Start small', 'Write the test first', 'Read the metrics', 'Automate the boring part', 'Document what you decided'];
  const chosen = steps.filter(() => random() < 0.6);
  return [
    `## ${angle} ${topic.name}`,
    '',
    `This is demo post **#${n}**. ${paragraphs[0]}`,
    '',
    '### Why it matters',
    '',
    `${paragraphs[1]} See the [API reference](https://example.com/docs) for the details, and keep *one* eye on the costs.`,
    '',
    '```' + topic.language,
    topic.code,
    '```',
    '',
    '### Checklist',
    '',
    ...(chosen.length ? chosen : steps.slice(0, 2)).map((step) => `- ${step}`),
    '',
    `> ${paragraphs[2]}`,
    '',
    '| Step | Time |',
    '| --- | --- |',
    `| Setup | ${1 + Math.floor(random() * 9)} min |`,
    `| First result | ${10 + Math.floor(random() * 50)} min |`,
  ].join('\n');
}

/** The hundred demo posts, in the order they are created. */
export function demoPosts(): DemoPost[] {
  const random = randomSource(20260105);
  // Votes, favorites and edits come from a stream of their own: the other fields stay as they were.
  const reactions = randomSource(20261113);
  // Comments too (v1.3), from a third stream.
  const talk = randomSource(20261128);
  let turns = 0;
  const turn = () => turns++;
  const usernames = DEMO_USERS.map((user) => user.username);
  const posts: DemoPost[] = [];
  let n = 0;
  for (const angle of ANGLES) {
    for (const topic of TOPICS) {
      n += 1;
      const author = usernames[n % usernames.length]!;
      const extra = pick(random, ['Testing', 'Performance', 'Career', 'Security']);
      const tags = [...new Set([...topic.tags, ...(random() < 0.4 ? [extra] : [])])];
      posts.push({
        author,
        title: `${angle} ${topic.name}`,
        description: description(random, angle, topic, n),
        tags,
        keywords: random() < 0.5 ? tags.map((tag) => tag.toLowerCase()).join(',') : null,
        meta_description: random() < 0.5 ? `${angle} ${topic.name}: notes and a checklist.` : null,
        // Every eleventh post is a draft, only its author sees it (GET /posts/me); eleven and the
        // four authors being coprime, every author has drafts.
        publish: n % 11 !== 0,
        featured: n % 11 !== 0 && n % 9 === 0,
        visitors: usernames.filter((name) => name !== author && random() < 0.45),
        votes: Object.fromEntries(usernames.filter((name) => name !== author && reactions() < 0.5).map((name) => [name, reactions() < 0.75 ? 'up' : 'down'])),
        favoriters: usernames.filter(() => reactions() < 0.2),
        edited: n % 11 !== 0 && n % 7 === 3,
        comments: n % 8 === 1 && n % 11 !== 0 ? demoThreads(talk, author, usernames, turn) : [],
        commentsLocked: n === 9,
      });
    }
  }
  return posts;
}

/**
 * One or two threads by users other than the author, with up to two replies each (the author
 * answers first). `turn` rotates the other writers, so that no demo user writes more than the
 * comments' rate limit allows in the minute a seed takes (docs/api.md: 10).
 */
function demoThreads(random: () => number, author: string, usernames: string[], turn: () => number): DemoThread[] {
  const others = usernames.filter((name) => name !== author);
  return Array.from({ length: 1 + Math.floor(random() * 2) }, () => ({
    author: others[turn() % others.length]!,
    body: pick(random, COMMENT_LINES),
    replies: Array.from({ length: Math.floor(random() * 3) }, (_, i) => ({
      author: i === 0 ? author : others[turn() % others.length]!,
      body: pick(random, REPLY_LINES),
    })),
  }));
}
