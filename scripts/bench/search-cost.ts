import './environment.ts';
import { pathToFileURL } from 'node:url';
import { randomUUID } from 'node:crypto';
import { awsRegion, positiveSetting, tableName } from '#lib/config.ts';
import { useDefaults } from '../local/settings.ts';
import { fetchInit } from '../local/client-request.ts';
import { recordRequestUsage } from '../local/request-usage.ts';
import { startStreamPollers } from '../local/stream-poller.ts';
import { randomSource } from '../seed/content.ts';
import { seedPosts } from './paging.ts';
import { startBenchStack, type BenchStack } from './stack.ts';

// What a page of 20 search results in summary view costs (view=summary&page_size=20), at
// BENCH_SEARCH_POSTS posts (default 3,000) of about 1.5 KB, the newest 20 with descriptions of
// 100,000 characters: for a word every post has, one letter, 26 one-letter words, a rare word, a
// rare word beside a common one, in creation order and by views; then while the index works
// through a burst of BENCH_SEARCH_BURST creates (default 2,500) through the API. Each figure is
// the request's own access-log record (its DynamoDB calls, their round trips as the meter groups
// them, and the capacity DynamoDB reported). The site is written straight into the tables, its
// postings as the stream consumer writes them; the burst goes through the API and the consumer.
//
//   node --import tsx scripts/bench/search-cost.ts     # its own in-memory stack; prints a markdown table

const LONG = 20;
const ALPHABET =
  'alfa bravo charlie delta echo foxtrot golf hotel india juliett kilo lima mike november oscar papa quebec romeo sierra tango uniform victor whiskey xray yankee zulu';

/** A vocabulary of made-up words, as search-burst.ts makes them. */
function vocabulary(random: () => number, size: number): string[] {
  const letters = 'abcdefghijklmnoprstuvwy';
  return Array.from(
    { length: size },
    () => Array.from({ length: 4 + Math.floor(random() * 7) }, () => letters[Math.floor(random() * letters.length)]).join('') + 'q',
  );
}

function text(random: () => number, words: readonly string[], length: number): string {
  const out = [ALPHABET];
  let size = ALPHABET.length;
  while (size < length) {
    const word = words[Math.floor(random() * words.length)]!;
    out.push(word);
    size += word.length + 1;
  }
  return out.join(' ').slice(0, length);
}

export interface CostRow {
  name: string;
  status: number;
  posts: number;
  calls: number;
  read: number;
}

async function measured(stack: BenchStack, token: string, query: string, usage: ReturnType<typeof recordRequestUsage>, name: string): Promise<CostRow> {
  const response = await fetch(`${stack.server.url}/posts?${query}`, fetchInit({ token }));
  const body = (await response.json()) as unknown[];
  const record = usage.take(response.headers.get('apigw-requestid') ?? undefined);
  if (!record) throw new Error(`${query}: no access-log record`);
  return { name, status: response.status, posts: Array.isArray(body) ? body.length : 0, calls: record.dynamodbCalls, read: record.consumedCapacity.read };
}

export async function measureSearchCost(
  stack: BenchStack,
  posts: number,
  burst: number,
  progress: (message: string) => void,
): Promise<{ site: CostRow[]; burst: CostRow[] }> {
  const pollers = await startStreamPollers({ server: stack.server, tableName: tableName(), region: awsRegion() });
  const usage = recordRequestUsage();
  try {
    const user = await stack.login();
    const random = randomSource(20261128);
    const words = vocabulary(random, 4_000);
    // Posts and their postings straight into the tables, as the stream consumer would write them
    // (paging.ts seedPosts: a bulk load, the stream off meanwhile).
    const seed = await seedPosts(
      posts,
      user.username,
      (i) => `${text(random, words, i >= posts - LONG ? 100_000 - 20 : 1_500)}${i % 100 === 0 ? ' dunlin' : ''}${i % 10 === 0 ? ' plover' : ''}`,
      progress,
    );
    progress(`${posts} posts seeded (${seed.items.toLocaleString('en')} items, postings included) in ${seed.seconds.toFixed(0)} s`);
    const summaries = 'view=summary&page_size=20';
    const queries: [string, string][] = [
      ['a word every post has (kilo)', `q=kilo&${summaries}`],
      ['one letter (k)', `q=k&${summaries}`],
      ['26 one-letter words (a b c … z)', `q=${encodeURIComponent('a b c d e f g h i j k l m n o p q r s t u v w x y z')}&${summaries}`],
      ['a word in 1 post in 100 (dunlin)', `q=dunlin&${summaries}`],
      ['a word in 1 in 100 beside one in 1 in 10 (dunlin plover)', `q=dunlin%20plover&${summaries}`],
      ['a word in 1 in 10 beside one in every post (plover kilo)', `q=plover%20kilo&${summaries}`],
      ['a word no post has (sparrow)', `q=sparrow&${summaries}`],
      ['one letter by views (k, sort=views)', `q=k&sort=views&${summaries}`],
      ['a word in 1 in 10 by votes (plover, sort=votes)', `q=plover&sort=votes&${summaries}`],
    ];
    const site: CostRow[] = [];
    for (const [name, query] of queries) site.push(await measured(stack, user.token, query, usage, name));

    progress(`a burst of ${burst} creates`);
    const marker = `burst${randomUUID().slice(0, 8)}`;
    const during: CostRow[] = [];
    let next = 0;
    const create = async () => {
      while (next < burst) {
        const n = next++;
        const response = await fetch(
          `${stack.server.url}/posts`,
          fetchInit({ method: 'POST', token: user.token, json: { title: `Burst ${n} ${marker}`, description: text(random, words, 1_500), publish: true } }),
        );
        if (response.status !== 201) throw new Error(`create answered ${response.status}`);
      }
    };
    const searching = (async () => {
      while (next < burst) {
        during.push(await measured(stack, user.token, `q=k&${summaries}`, usage, 'one letter (k), during the burst'));
        during.push(await measured(stack, user.token, `q=${marker}&${summaries}`, usage, 'the burst’s own word, during the burst'));
        await new Promise((done) => setTimeout(done, 1_000));
      }
    })();
    await Promise.all([...Array.from({ length: 16 }, create), searching]);
    return { site, burst: during };
  } finally {
    usage.detach();
    await pollers.stop();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  useDefaults({ LOG_LEVEL: 'warn' });
  const stack = await startBenchStack();
  try {
    const posts = positiveSetting('BENCH_SEARCH_POSTS', 3_000);
    const burst = positiveSetting('BENCH_SEARCH_BURST', 2_500);
    const { site, burst: during } = await measureSearchCost(stack, posts, burst, (message) => console.error(`bench: ${message}`));
    console.log(`A page of 20 summaries of a search, at ${posts.toLocaleString('en')} posts (the ${LONG} newest of 100,000 characters):\n`);
    console.log('| query | status | posts shown | DynamoDB calls | RCU |');
    console.log('|---|---:|---:|---:|---:|');
    for (const row of site) console.log(`| ${row.name} | ${row.status} | ${row.posts} | ${row.calls} | ${row.read} |`);
    const byName = new Map<string, CostRow[]>();
    for (const row of during) byName.set(row.name, [...(byName.get(row.name) ?? []), row]);
    console.log(`\nWhile the index works through a burst of ${burst.toLocaleString('en')} creates (16 in flight), a search every second:\n`);
    console.log('| query | searches | statuses | RCU min | RCU median | RCU max |');
    console.log('|---|---:|---|---:|---:|---:|');
    for (const [name, rows] of byName) {
      const reads = rows.map((row) => row.read).sort((a, b) => a - b);
      const statuses = new Map<number, number>();
      for (const row of rows) statuses.set(row.status, (statuses.get(row.status) ?? 0) + 1);
      const told = [...statuses].map(([status, count]) => `${count}× ${status}`).join(', ');
      console.log(`| ${name} | ${rows.length} | ${told} | ${reads[0]} | ${reads[Math.floor(reads.length / 2)]} | ${reads.at(-1)} |`);
    }
  } finally {
    await stack.stop();
  }
}
