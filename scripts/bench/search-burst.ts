import './environment.ts';
import { pathToFileURL } from 'node:url';
import { randomUUID } from 'node:crypto';
import { awsRegion, positiveSetting, tableName } from '#lib/config.ts';
import { useDefaults } from '../local/settings.ts';
import { randomSource } from '../seed/content.ts';
import { fetchInit } from '../local/client-request.ts';
import { startStreamPollers } from '../local/stream-poller.ts';
import { startBenchStack, type BenchStack } from './stack.ts';

// A burst of creates, then searches: how long after the last create a search by a word every post
// of the burst shares finds all of them. The posts are created through the local API at full speed
// (CONCURRENCY requests in flight), each about 1.5 KB of text with some 220 distinct words, as a
// real article has; the stream consumer indexes them as deployed (docs/streams.md).
//
//   node --import tsx scripts/bench/search-burst.ts      # its own in-memory stack; prints the figures
//   BENCH_BURST_POSTS=200 node --import tsx scripts/bench/search-burst.ts
//   BENCH_BURST_PAGE_SIZE=20 node --import tsx scripts/bench/search-burst.ts   # the searches page 20 at a time (default 100)
//   BENCH_BURST_WAIT_SECONDS=600 node --import tsx scripts/bench/search-burst.ts   # how long to search on after the burst (default 120)

export interface BurstResult {
  posts: number;
  concurrency: number;
  /** From the first create's start to the last create's answer. */
  createSeconds: number;
  /** Posts a search (every page of it) found, by seconds after the last create's answer: when it began and when its last page came. */
  foundAt: { began: number; seconds: number; found: number }[];
  /** From the last create's answer to a search finding every post of the burst (undefined: not within the wait). */
  lagSeconds?: number;
  /** From the last create's answer to the stream consumer having handled every record (the index alone holds them all). */
  indexedSeconds?: number;
  /** The fewest posts a search found after it had found them all, until the index caught up (a search must not let go of any). */
  foundAfterwards?: number;
}

/** A vocabulary of made-up words (no word begins another: each ends in a letter no word has inside). */
function vocabulary(random: () => number, size: number): string[] {
  const letters = 'abcdefghijklmnoprstuvwy';
  return Array.from({ length: size }, () => {
    const length = 4 + Math.floor(random() * 7);
    return Array.from({ length }, () => letters[Math.floor(random() * letters.length)]).join('') + 'q';
  });
}

/** About 1.5 KB of text from the vocabulary (some 220 distinct words). */
function article(random: () => number, words: string[], shared: string): string {
  const out: string[] = [shared];
  while (out.join(' ').length < 1_500) out.push(words[Math.floor(random() * words.length)]!);
  return out.join(' ');
}

async function countFound(url: string, token: string, word: string, pageSize: number): Promise<number> {
  const found = new Set<string>();
  let next: string | undefined = `${url}/posts?q=${word}&page_size=${pageSize}`;
  while (next) {
    const response = await fetch(next, fetchInit({ token }));
    if (response.status === 404) break;
    if (response.status !== 200) throw new Error(`search answered ${response.status}: ${await response.text()}`);
    const body = (await response.json()) as { slug: string }[];
    for (const post of body) found.add(post.slug);
    const link = response.headers.get('link')?.match(/<([^>]+)>/)?.[1];
    // The Link names the host the request reached; the stack answers on its own URL.
    next = link ? `${url}${new URL(link).pathname.replace(/^\/api\/v1/, '')}${new URL(link).search}` : undefined;
  }
  return found.size;
}

export async function measureSearchBurst(
  stack: BenchStack,
  posts: number,
  concurrency: number,
  pageSize = 100,
  waitSeconds = positiveSetting('BENCH_BURST_WAIT_SECONDS', 120),
): Promise<BurstResult> {
  const pollers = await startStreamPollers({ server: stack.server, tableName: tableName(), region: awsRegion() });
  try {
    const { token } = await stack.login();
    const random = randomSource(20261127);
    const words = vocabulary(random, 4_000);
    const shared = `burst${randomUUID().slice(0, 8)}`;
    const url = stack.server.url;
    let next = 0;
    const started = performance.now();
    const create = async () => {
      while (next < posts) {
        const n = next++;
        const response = await fetch(
          `${url}/posts`,
          fetchInit({ method: 'POST', token, json: { title: `Burst ${n} ${shared}`, description: article(random, words, shared), publish: true } }),
        );
        if (response.status !== 201) throw new Error(`create answered ${response.status}: ${await response.text()}`);
      }
    };
    await Promise.all(Array.from({ length: concurrency }, create));
    const lastCreate = performance.now();
    const foundAt: BurstResult['foundAt'] = [];
    let lagSeconds: number | undefined;
    const since = (at: number) => Number(((at - lastCreate) / 1000).toFixed(2));
    for (;;) {
      const began = performance.now();
      const found = await countFound(url, token, shared, pageSize);
      const seconds = since(performance.now());
      foundAt.push({ began: since(began), seconds, found });
      if (found >= posts) {
        lagSeconds = seconds;
        break;
      }
      if (seconds > waitSeconds) break;
      await new Promise((done) => setTimeout(done, 500));
    }
    // Searching on while the index catches up: the count must hold.
    let indexedSeconds: number | undefined;
    let foundAfterwards: number | undefined;
    if (lagSeconds !== undefined) {
      const indexed = pollers.caughtUp(waitSeconds * 1000).then(() => {
        indexedSeconds = Number(((performance.now() - lastCreate) / 1000).toFixed(2));
      });
      while (indexedSeconds === undefined) {
        const found = await countFound(url, token, shared, pageSize);
        foundAfterwards = Math.min(foundAfterwards ?? found, found);
        await Promise.race([indexed, new Promise((done) => setTimeout(done, 500))]);
      }
    }
    return {
      posts,
      concurrency,
      createSeconds: Number(((lastCreate - started) / 1000).toFixed(2)),
      foundAt,
      ...(lagSeconds === undefined ? {} : { lagSeconds }),
      ...(indexedSeconds === undefined ? {} : { indexedSeconds }),
      ...(foundAfterwards === undefined ? {} : { foundAfterwards }),
    };
  } finally {
    await pollers.stop();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  useDefaults({ LOG_LEVEL: 'warn' });
  const stack = await startBenchStack();
  try {
    const result = await measureSearchBurst(
      stack,
      positiveSetting('BENCH_BURST_POSTS', 1_000),
      positiveSetting('BENCH_BURST_CONCURRENCY', 16),
      positiveSetting('BENCH_BURST_PAGE_SIZE', 100),
    );
    console.log(
      `burst: ${result.posts} posts of ~1.5 KB created in ${result.createSeconds} s (${result.concurrency} in flight); searches page ${positiveSetting('BENCH_BURST_PAGE_SIZE', 100)} at a time`,
    );
    for (const { began, seconds, found } of result.foundAt)
      console.log(`  ${seconds} s after the last create: ${found} found (the search began at ${began} s)`);
    console.log(
      result.lagSeconds === undefined
        ? `burst lag: not all found within the wait`
        : `burst lag: all ${result.posts} found ${result.lagSeconds} s after the last create`,
    );
    if (result.indexedSeconds !== undefined) {
      console.log(
        `index caught up ${result.indexedSeconds} s after the last create; searches meanwhile found at least ${result.foundAfterwards ?? result.posts}`,
      );
    }
  } finally {
    await stack.stop();
  }
}
