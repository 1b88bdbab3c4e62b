import { randomUUID } from 'node:crypto';
import { UpdateTableCommand } from '@aws-sdk/client-dynamodb';
import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { db, dynamodb } from '#lib/db/client.ts';
import { tableName } from '#lib/config.ts';
import { postItems } from '#lib/posts/changes.ts';
import type { PostRecord } from '#lib/posts/post.ts';
import { isoTimestamp } from '#lib/time.ts';
import { ensureTable } from '../local/ensure-table.ts';
import { attachMeter, type Usage } from './meter.ts';
import type { BenchStack } from './stack.ts';
import { spread, type Spread } from './stats.ts';

// Parts 4 and 5: paging through 10,000 posts, and searching 1,000 and 10,000.

export interface RequestFigures extends Usage {
  name: string;
  posts: number;
  latencyMs: Spread;
  items: number;
}

/** Every `markEvery`-th post carries the word the search looks for. */
export const SEARCH_WORD = 'zebrafinch';

/** Writes `count` published posts straight into the table, each as all its items (25 items a BatchWriteItem). */
async function seedPosts(count: number, author: string, markEvery: number): Promise<void> {
  const items = Array.from({ length: count }, (_, i) => {
    const now = isoTimestamp();
    const id = randomUUID();
    const post: PostRecord = {
      id,
      slug: `bench-post-${i}-${id.slice(0, 6)}`,
      slug_base: `bench-post-${i}`,
      author,
      author_id: 1,
      title: `Bench post ${i}`,
      description: `${i % markEvery === 0 ? `A ${SEARCH_WORD} appears. ` : ''}${'Body text of an ordinary post, a few sentences long. '.repeat(8)}`,
      created: now,
      modified: now,
      publish: true,
      is_featured: i % 10 === 0,
      tags: [],
      tag_slugs: [],
      keywords: null,
      meta_description: null,
      rating_likes: 0,
      rating_dislikes: 0,
      total_visitors: i % 50,
      total_favorites: 0,
      version: 1,
      text_version: 1,
    };
    return postItems(post);
  }).flat();
  // DynamoDB Local slows every write to a table with a stream as the records pile up (docs/streams.md):
  // the bulk load goes in with the stream off, and the table has it back before anything is measured.
  await dynamodb().send(new UpdateTableCommand({ TableName: tableName(), StreamSpecification: { StreamEnabled: false } }));
  for (let start = 0; start < items.length; start += 25) {
    let pending: Record<string, unknown>[] | undefined = items.slice(start, start + 25).map((Item) => ({ PutRequest: { Item } }));
    while (pending && pending.length > 0) {
      const response = await db().send(new BatchWriteCommand({ RequestItems: { [tableName()]: pending as never } }));
      pending = response.UnprocessedItems?.[tableName()] as Record<string, unknown>[] | undefined;
    }
  }
  await ensureTable(tableName());
}

async function timed(url: string, token: string): Promise<{ ms: number; items: number; link: string | null }> {
  const started = performance.now();
  const response = await fetch(url, { headers: { Authorization: `Token ${token}` } });
  const body = (await response.json()) as unknown[];
  const ms = performance.now() - started;
  if (response.status !== 200) throw new Error(`${url}: ${response.status}`);
  const link = /^<([^>]+)>; rel="next"$/.exec(response.headers.get('link') ?? '')?.[1] ?? null;
  return { ms, items: body.length, link };
}

/** Calls and capacity of one request (metered once), latency over `repeats` runs. */
async function measureRequest(name: string, posts: number, url: string, token: string, repeats: number): Promise<RequestFigures> {
  const meter = attachMeter();
  let items = 0;
  let usage: Usage;
  try {
    usage = await meter.measure(async () => {
      items = (await timed(url, token)).items;
    });
  } finally {
    meter.detach();
  }
  const samples: number[] = [];
  for (let i = 0; i < repeats; i++) samples.push((await timed(url, token)).ms);
  return { name, posts, items, latencyMs: spread(samples), ...usage };
}

export async function measurePaging(stack: BenchStack, repeats: number): Promise<RequestFigures[]> {
  await stack.freshTable();
  const user = await stack.login();
  await seedPosts(10_000, user.username, 100);
  const base = `${stack.server.url}/posts`;
  // Page 50 reached by following Link from page 1: the URL of the 49th next link.
  let url = base;
  for (let page = 1; page < 50; page++) url = (await timed(url, user.token)).link!;
  return [
    await measureRequest('page 1', 10_000, base, user.token, repeats),
    await measureRequest('page 50 by number (?page=50)', 10_000, `${base}?page=50`, user.token, repeats),
    await measureRequest('page 50 by following Link', 10_000, url, user.token, repeats),
  ];
}

export async function measureSearch(stack: BenchStack, repeats: number): Promise<RequestFigures[]> {
  const figures: RequestFigures[] = [];
  for (const posts of [1_000, 10_000]) {
    await stack.freshTable();
    const user = await stack.login();
    await seedPosts(posts, user.username, 100);
    figures.push(await measureRequest(`q=${SEARCH_WORD} (1 post in 100 matches)`, posts, `${stack.server.url}/posts?q=${SEARCH_WORD}`, user.token, repeats));
    figures.push(await measureRequest('q=nomatch (no post matches)', posts, `${stack.server.url}/posts?q=nomatchword`, user.token, repeats));
  }
  return figures;
}
