import './local/tool.ts';
import { spawn, type ChildProcess } from 'node:child_process';
import { gzipSync } from 'node:zlib';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { freePort } from './local/free-port.ts';
import { childEnvironment } from './local/settings.ts';

// `npm run lighthouse`: measures the site as a visitor's phone would load it. Starts the local
// stack as `npm start` does (the built site beside the API, public reads on, DynamoDB Local in
// memory on ports of its own), seeds a few posts through the API, then runs Lighthouse 12 (its
// default: mobile, simulated throttling) in Debian's Chromium three times on the home page and
// three times on a post page (with a few comments, which load after it). Prints the four scores per
// page (performance: the median of the three runs; the others: their lowest) and the JavaScript
// each page's first load transfers, gzipped. Measures only: docs/performance.md holds the figures
// and the goals.

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const RUNS = 3;
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;

async function waitForApi(url: string, child: ChildProcess): Promise<void> {
  const until = Date.now() + 180_000;
  while (Date.now() < until) {
    if (child.exitCode !== null) throw new Error(`npm start exited with ${child.exitCode}`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((done) => setTimeout(done, 250));
  }
  throw new Error(`the local stack did not answer at ${url}`);
}

async function call<T>(url: string, init: RequestInit & { json?: unknown; token?: string }): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (init.json !== undefined) headers['Content-Type'] = 'application/json';
  if (init.token) headers.Authorization = `Token ${init.token}`;
  const response = await fetch(url, { method: init.method ?? 'GET', headers, ...(init.json !== undefined ? { body: JSON.stringify(init.json) } : {}) });
  const text = await response.text();
  if (!response.ok) throw new Error(`${init.method ?? 'GET'} ${url}: ${response.status} ${text}`);
  return JSON.parse(text) as T;
}

/** A writer and eight published posts with Markdown and tags, the first with comments and a reply: pages worth measuring. */
async function seed(api: string): Promise<string> {
  const suffix = Date.now().toString(36);
  const writer = await call<{ token: string }>(`${api}/users`, {
    method: 'POST',
    json: { username: `lighthouse${suffix}`, password: 'measured with care 12' },
  });
  const topics = [
    'Cold starts',
    'Single-table design',
    'Streams and search',
    'Paging with cursors',
    'Caching public reads',
    'Token auth',
    'Markdown safely',
    'Lambda costs',
  ];
  let slug = '';
  for (const [i, topic] of topics.entries()) {
    const description = [
      `## ${topic}`,
      '',
      `Notes on **${topic.toLowerCase()}** from running a community site on AWS Lambda and DynamoDB.`,
      '',
      '- measure before tuning',
      '- keep handlers thin',
      '- let the table shape follow the reads',
      '',
      '```ts',
      `export const topic = ${JSON.stringify(topic)};`,
      '```',
      '',
      'See [the API documentation](/api/v1/docs) for the routes.',
    ].join('\n');
    const post = await call<{ slug: string }>(`${api}/posts`, {
      method: 'POST',
      token: writer.token,
      json: { title: topic, description, tags: i % 2 ? 'Serverless, DynamoDB' : 'Serverless, Lambda', publish: true },
    });
    slug ||= post.slug;
  }
  const comments = [
    'Provisioned concurrency took our p99 from about 900 ms to 40 ms. Worth it for the login route.',
    'Did you compare with **SnapStart**? Not for Node.js yet, sadly.',
    'Keeping the bundle small helped us more than anything else: esbuild, no `aws-sdk` v2.',
  ];
  let first = '';
  for (const body of comments) {
    const created = await call<{ id: string }>(`${api}/posts/detail/${slug}/comments`, { method: 'POST', token: writer.token, json: { body } });
    first ||= created.id;
  }
  await call(`${api}/posts/detail/${slug}/comments`, { method: 'POST', token: writer.token, json: { body: 'Same here: measure first.', parent: first } });
  return slug;
}

/** The metrics behind the performance score, in milliseconds (CLS: unitless). */
const METRICS = [
  ['first-contentful-paint', 'FCP'],
  ['largest-contentful-paint', 'LCP'],
  ['total-blocking-time', 'TBT'],
  ['speed-index', 'SI'],
  ['cumulative-layout-shift', 'CLS'],
] as const;

interface Run {
  scores: Record<(typeof CATEGORIES)[number], number>;
  metrics: Record<(typeof METRICS)[number][1], number>;
  /** The audits of the three other categories that did not pass, by id. */
  failed: string[];
  /** Scripts the load fetched: their URL and transfer size (bytes on the wire). */
  scripts: { url: string; transferSize: number }[];
}

async function measure(url: string, port: number): Promise<Run> {
  const result = await lighthouse(url, { port, output: 'json', logLevel: 'error' });
  if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
  const { lhr } = result;
  if (lhr.runtimeError) throw new Error(`Lighthouse: ${lhr.runtimeError.message}`);
  const scores = Object.fromEntries(CATEGORIES.map((name) => [name, Math.round((lhr.categories[name]?.score ?? 0) * 100)])) as Run['scores'];
  const items =
    (lhr.audits['network-requests']?.details as { items?: { url: string; resourceType?: string; transferSize?: number }[] } | undefined)?.items ?? [];
  const scripts = items.filter((item) => item.resourceType === 'Script').map((item) => ({ url: item.url, transferSize: item.transferSize ?? 0 }));
  const metrics = Object.fromEntries(METRICS.map(([audit, short]) => [short, lhr.audits[audit]?.numericValue ?? NaN])) as Run['metrics'];
  const failed = CATEGORIES.slice(1).flatMap((name) =>
    (lhr.categories[name]?.auditRefs ?? []).filter((ref) => ref.weight > 0 && (lhr.audits[ref.id]?.score ?? 1) < 1).map((ref) => `${name}: ${ref.id}`),
  );
  return { scores, metrics, scripts, failed };
}

/** A run, taken again (twice at most) when Lighthouse fails to record it (NO_NAVSTART and the like): a failed recording says nothing about the page. */
async function measureAgain(url: string, port: number): Promise<Run> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await measure(url, port);
    } catch (error) {
      if (attempt === 3) throw error;
      console.log(`  (run not recorded, again: ${error instanceof Error ? error.message : String(error)})`);
    }
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

async function main(): Promise<void> {
  const [port, dynamodbPort] = [await freePort(), await freePort()];
  const origin = `http://127.0.0.1:${port}`;
  const stack = spawn(process.execPath, ['--import', 'tsx', 'scripts/start.ts'], {
    env: childEnvironment({ PORT: String(port), DYNAMODB_PORT: String(dynamodbPort), IN_MEMORY: '1', PUBLIC_READS: 'true', ACCESS_LOG: '0' }),
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  let chrome: chromeLauncher.LaunchedChrome | undefined;
  try {
    await waitForApi(`${origin}/api/v1`, stack);
    const slug = await seed(`${origin}/api/v1`);
    // The site must be served (a built site at `/`), not the API's JSON 404.
    const home = await fetch(`${origin}/`);
    if (!(home.headers.get('content-type') ?? '').startsWith('text/html'))
      throw new Error(`${origin}/ is not the site (${home.status} ${home.headers.get('content-type')})`);

    chrome = await chromeLauncher.launch({
      chromePath: CHROMIUM,
      chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
    });
    const pages = [
      { name: 'home page', url: `${origin}/` },
      { name: 'post page', url: `${origin}/posts/${slug}` },
    ];
    const firstLoads = new Map<string, Run['scripts']>();
    for (const page of pages) {
      const runs: Run[] = [];
      for (let i = 0; i < RUNS; i++) runs.push(await measureAgain(page.url, chrome.port));
      firstLoads.set(page.name, runs[0]?.scripts ?? []);
      const performance = median(runs.map((run) => run.scores.performance));
      const lowest = (name: (typeof CATEGORIES)[number]) => Math.min(...runs.map((run) => run.scores[name]));
      console.log(`${page.name} (${page.url})`);
      console.log(`  performance    ${performance} (median of ${runs.map((run) => run.scores.performance).join(', ')})`);
      for (const name of CATEGORIES.slice(1)) console.log(`  ${name.padEnd(15)}${lowest(name)} (runs: ${runs.map((run) => run.scores[name]).join(', ')})`);
      const metric = (short: (typeof METRICS)[number][1]) => median(runs.map((run) => run.metrics[short]));
      const failed = [...new Set(runs.flatMap((run) => run.failed))];
      if (failed.length > 0) console.log(`  failed audits: ${failed.join(', ')}`);
      console.log(
        `  medians: ${METRICS.map(([, short]) => (short === 'CLS' ? `CLS ${metric(short).toFixed(3)}` : `${short} ${Math.round(metric(short))} ms`)).join(', ')}`,
      );
    }

    // Each first load's JavaScript: every script Lighthouse saw fetched, lazy chunks included.
    // The local server may not compress: each script is also gzipped here, as CloudFront serves it.
    for (const [name, scripts] of firstLoads) {
      let wire = 0;
      let gzipped = 0;
      const sizes: string[] = [];
      for (const script of scripts) {
        wire += script.transferSize;
        const body = Buffer.from(await (await fetch(script.url)).arrayBuffer());
        const size = gzipSync(body, { level: 9 }).length;
        gzipped += size;
        sizes.push(`  ${new URL(script.url).pathname} ${(size / 1024).toFixed(1)} KB`);
      }
      console.log(
        `${name} JavaScript, first load: ${scripts.length} scripts, ${(gzipped / 1024).toFixed(1)} KB gzipped (${(wire / 1024).toFixed(1)} KB transferred locally)`,
      );
      for (const line of sizes) console.log(line);
    }
  } finally {
    await chrome?.kill();
    if (stack.exitCode === null) {
      const exited = new Promise((done) => stack.once('exit', done));
      stack.kill('SIGTERM');
      await exited;
    }
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
