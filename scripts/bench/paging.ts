import { randomUUID } from 'node:crypto';
import { DynamoDBClient, UpdateTableCommand, type UpdateTableCommandInput } from '@aws-sdk/client-dynamodb';
import { BatchWriteCommand, DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Item } from '#lib/db/batch.ts';
import { awsRegion, dynamodbEndpoint, localCredentials, searchTableName, tableName } from '#lib/config.ts';
import { createTableInput } from '#lib/db/table.ts';
import { postItems } from '#lib/posts/changes.ts';
import { summaryOf } from '#lib/posts/summarize.ts';
import { newPost, postTextItem, type PostRecord } from '#lib/posts/post.ts';
import { FRESH_MS } from '#lib/lists/search.ts';
import { indexedPost, postingChange } from '#lib/search/postings.ts';
import { isoTimestamp, nowMicros } from '#lib/time.ts';
import { attachMeter, type Usage } from './meter.ts';
import type { BenchStack } from './stack.ts';
import { spread, type Spread } from './stats.ts';

// Part 4: paging through 10,000 posts; and the bulk load of posts that part 5 (search.ts) seeds too.

export interface RequestFigures extends Usage {
  name: string;
  posts: number;
  latencyMs: Spread;
  items: number;
}

/** What a bulk load wrote, and how long it took. */
export interface SeedFigures {
  posts: number;
  /** Items written: text, stats, list entries and search postings. */
  items: number;
  seconds: number;
}

/** Items in one BatchWriteItem (DynamoDB's limit). */
const BATCH_ITEMS = 25;
/** BatchWriteItem calls in flight at once during a bulk load. */
export const SEED_BATCHES_IN_FLIGHT = 8;
/**
 * How long one call of a bulk load may take. The service's client gives up after
 * DYNAMODB_REQUEST_TIMEOUT_MS (2 s), which the calls of a load of 100,000 posts pass: DynamoDB
 * Local's DescribeTable and UpdateTable count the table's items (about 0.25 s per 100,000), and a
 * BatchWriteItem can wait for the emulator's garbage collection. The load has a client of its own,
 * outside the meter.
 */
const SEED_REQUEST_TIMEOUT_MS = 60_000;

function seedingClient(): DynamoDBClient {
  const endpoint = dynamodbEndpoint();
  return new DynamoDBClient({
    region: awsRegion(),
    maxAttempts: 5,
    requestHandler: { requestTimeout: SEED_REQUEST_TIMEOUT_MS, throwOnRequestTimeout: true },
    ...(endpoint ? { endpoint, credentials: localCredentials() } : {}),
  });
}

/** Post `i` by `author`, with `description`, created at `micros`. */
function benchPost(i: number, author: string, description: string, micros: number): PostRecord {
  const slug = { slug: `bench-post-${i}-${randomUUID().slice(0, 6)}`, slugBase: `bench-post-${i}` };
  const post = newPost({ userId: 1, username: author, token: '' }, { title: `Bench post ${i}`, description, publish: true }, slug, [], isoTimestamp(micros));
  return { ...post, is_featured: i % 10 === 0, total_visitors: i % 50 };
}

/**
 * Every item of the posts, BATCH_ITEMS at a time, built as they are written: the post's own items
 * (postItems) and its search postings, as the stream consumer writes them for a new text
 * (postingChange from nothing to the text item). The posts are created one second apart, the
 * newest a minute before the load: a search also reads the posts changed in the last FRESH_MS
 * (lib/lists/search.ts), and the bench measures a site whose posts are older than that.
 */
function* seedBatches(
  count: number,
  author: string,
  description: (i: number) => string,
  progress: (posts: number) => void,
): Generator<{ table: string; items: Item[] }> {
  const newest = nowMicros() - 6 * FRESH_MS * 1000;
  // The posts' items go to the table, their postings to the search table.
  const batches = new Map<string, Item[]>([
    [tableName(), []],
    [searchTableName(), []],
  ]);
  for (let i = 0; i < count; i++) {
    progress(i);
    const post = benchPost(i, author, description(i), newest - (count - 1 - i) * 1_000_000);
    const indexed = indexedPost(postTextItem(post));
    if (!indexed) throw new Error(`bench post ${i}: its text item is not a post the search index knows`);
    for (const [table, items] of [
      [tableName(), postItems(post, summaryOf(post))],
      [searchTableName(), postingChange(undefined, indexed).puts],
    ] as const) {
      for (const item of items) {
        const batch = batches.get(table)!;
        batch.push(item);
        if (batch.length === BATCH_ITEMS) {
          yield { table, items: batch };
          batches.set(table, []);
        }
      }
    }
  }
  for (const [table, items] of batches) if (items.length > 0) yield { table, items };
}

/** Posts between two progress messages of a bulk load. */
const PROGRESS_EVERY = 20_000;

/**
 * Writes `count` published posts (post `i` with `description(i)`) straight into the table with
 * BatchWriteItem, SEED_BATCHES_IN_FLIGHT calls at once: each post as all its items and its search
 * postings, which the running service's stream consumer would write. A long load tells `progress`
 * how far it got every PROGRESS_EVERY posts.
 */
export async function seedPosts(
  count: number,
  author: string,
  description: (i: number) => string,
  progress: (message: string) => void = () => undefined,
): Promise<SeedFigures> {
  const started = performance.now();
  const client = seedingClient();
  const documents = DynamoDBDocumentClient.from(client, { marshallOptions: { removeUndefinedValues: true } });
  // DynamoDB Local slows every write to a table with a stream as the records pile up (docs/streams.md):
  // the bulk load goes in with the stream off, and the table has it back before anything is measured:
  // the stream of its definition, as scripts/local/ensure-table.ts gives it (whose DescribeTable
  // would pass the service client's timeout on a large table).
  const stream = (StreamSpecification: UpdateTableCommandInput['StreamSpecification']) =>
    client.send(new UpdateTableCommand({ TableName: tableName(), StreamSpecification }));
  const report = (posts: number) => {
    if (posts > 0 && posts % PROGRESS_EVERY === 0)
      progress(`${posts.toLocaleString('en-US')} of ${count.toLocaleString('en-US')} posts after ${((performance.now() - started) / 1000).toFixed(0)} s`);
  };
  const batches = seedBatches(count, author, description, report);
  let items = 0;
  let failed = false;
  const writer = async () => {
    // One generator for all writers: each next() runs to its yield before another writer's starts.
    for (let next = batches.next(); !next.done && !failed; next = batches.next()) {
      const { table, items: batch } = next.value;
      items += batch.length;
      let pending: Record<string, unknown>[] | undefined = batch.map((Item) => ({ PutRequest: { Item } }));
      while (pending && pending.length > 0) {
        const response = await documents.send(new BatchWriteCommand({ RequestItems: { [table]: pending as never } })).catch((error: unknown) => {
          failed = true;
          throw error;
        });
        pending = response.UnprocessedItems?.[table] as Record<string, unknown>[] | undefined;
      }
    }
  };
  try {
    await stream({ StreamEnabled: false });
    await Promise.all(Array.from({ length: SEED_BATCHES_IN_FLIGHT }, writer));
    await stream(createTableInput(tableName()).StreamSpecification);
  } finally {
    client.destroy();
  }
  return { posts: count, items, seconds: (performance.now() - started) / 1000 };
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
export async function measureRequest(name: string, posts: number, url: string, token: string, repeats: number): Promise<RequestFigures> {
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

/** The description of the posts paged through: about 430 characters, a dozen distinct words. */
const PAGING_DESCRIPTION = 'Body text of an ordinary post, a few sentences long. '.repeat(8);

export async function measurePaging(stack: BenchStack, repeats: number): Promise<RequestFigures[]> {
  await stack.freshTable();
  const user = await stack.login();
  await seedPosts(10_000, user.username, () => PAGING_DESCRIPTION);
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
