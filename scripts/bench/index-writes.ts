import './environment.ts';
import { pathToFileURL } from 'node:url';
import { randomUUID } from 'node:crypto';
import { awsRegion, tableName } from '#lib/config.ts';
import { useDefaults } from '../local/settings.ts';
import { dynamodb } from '#lib/db/client.ts';
import { currentDynamoUsage } from '#lib/db/usage.ts';
import { postTerms } from '#lib/search/terms.ts';
import { onStreamBatch } from '#lib/streams/consumer.ts';
import { wordsOf } from '#lib/search/words.ts';
import { fetchInit, type ClientRequest } from '../local/client-request.ts';
import { startStreamPollers, type StreamPollers } from '../local/stream-poller.ts';
import { recordRequestUsage, type UsageLog } from '../local/request-usage.ts';
import { randomSource } from '../seed/content.ts';
import { startBenchStack, type BenchStack } from './stack.ts';

// What the search index costs to keep, per operation: the DynamoDB calls and the read and write
// capacity the table's stream consumer spends (lib/streams/consumer.ts reports each batch's usage
// to onStreamBatch) after one request through the local API, for a post of 1,000 characters and
// one of 100,000. Each operation runs alone: the pollers are caught up before it and after it, so
// the sums hold its records only. The request's own usage comes from its access-log record.
// DynamoDB bills a write whose condition fails (1 WCU for a posting) but answers it with an error
// that reports no capacity, so the consumer's logged WCU leaves those out: the bench counts them
// apart (a middleware on the process's client) and adds them to give the billed WCU.
//
//   node --import tsx scripts/bench/index-writes.ts      # its own in-memory stack; prints a markdown table

/** Where the figures of one operation come from: the consumer's batches and the request itself. */
export interface OperationCost {
  operation: string;
  consumer: {
    batches: number;
    records: number;
    calls: number;
    readUnits: number;
    /** As the consumer logs it: the capacity DynamoDB's answers reported. */
    writeUnits: number;
    /** Writes whose condition failed: billed (1 WCU each, postings being under 1 KB), reported by no answer. */
    failedConditions: number;
    reactions: Record<string, number>;
  };
  request?: { status: number; calls: number; readUnits: number; writeUnits: number };
}

export interface PostCost {
  /** The description's length in characters. */
  characters: number;
  /** The post's distinct words (title and description). */
  distinctWords: number;
  /** Its terms in the search index (lib/search/terms.ts): one posting each. */
  terms: number;
  operations: OperationCost[];
}

const CAUGHT_UP_MS = 300_000;

/** Failed conditional writes of stream batches since the process started. */
let failedConditions = 0;

/** Counts the consumer's writes refused by their condition (the consumer runs in this process). */
function countFailedConditions(): void {
  dynamodb().middlewareStack.add(
    (next) => async (args) => {
      try {
        return await next(args);
      } catch (error) {
        if ((error as { name?: string }).name === 'ConditionalCheckFailedException' && currentDynamoUsage()?.stream) failedConditions += 1;
        throw error;
      }
    },
    { step: 'initialize', name: 'benchFailedConditions' },
  );
}

/** A vocabulary of made-up words ending in a letter no word has inside, so that no word begins another. */
function vocabulary(random: () => number, size: number): string[] {
  const letters = 'abcdefghijklmnoprstuvwy';
  return Array.from({ length: size }, () => {
    const length = 3 + Math.floor(random() * 8);
    return Array.from({ length }, () => letters[Math.floor(random() * letters.length)]).join('') + 'q';
  });
}

/**
 * Text of `length` characters whose words follow Zipf's law over the vocabulary, as a language's
 * do: a few words often, most rarely (100,000 characters hold some thousands of distinct words).
 */
function zipfText(random: () => number, words: readonly string[], length: number): string {
  const cumulative: number[] = [];
  let total = 0;
  for (let rank = 0; rank < words.length; rank++) cumulative.push((total += 1 / (rank + 1)));
  const pick = () => {
    const target = random() * total;
    let low = 0;
    let high = cumulative.length - 1;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (cumulative[middle]! < target) low = middle + 1;
      else high = middle;
    }
    return words[low]!;
  };
  const out: string[] = [];
  let size = -1;
  for (;;) {
    const word = pick();
    if (size + 1 + word.length > length) break;
    out.push(word);
    size += 1 + word.length;
  }
  return out.join(' ');
}

/** The description with one word that occurs once in the post replaced by a word it lacks: one word dropped, one added. */
function changeOneWord(title: string, description: string, replacement: string): string {
  const counts = new Map<string, number>();
  for (const word of [...wordsOf(title), ...wordsOf(description)]) counts.set(word, (counts.get(word) ?? 0) + 1);
  const words = description.split(' ');
  const index = words.findIndex((word) => counts.get(word) === 1);
  if (index < 0) throw new Error('No word occurs once in the description');
  words[index] = replacement;
  return words.join(' ');
}

interface Bench {
  stack: BenchStack;
  pollers: StreamPollers;
  usage: UsageLog;
}

/** Runs `request` alone and sums what the stream consumer spent on the records it caused. */
async function measure(
  bench: Bench,
  operation: string,
  request: { path: string } & ClientRequest,
  expected: number,
): Promise<{ cost: OperationCost; body: unknown }> {
  await bench.pollers.caughtUp(CAUGHT_UP_MS);
  const consumer: OperationCost['consumer'] = { batches: 0, records: 0, calls: 0, readUnits: 0, writeUnits: 0, failedConditions: 0, reactions: {} };
  const failedBefore = failedConditions;
  onStreamBatch((batch) => {
    consumer.batches += 1;
    consumer.records += batch.records;
    consumer.calls += batch.dynamodbCalls;
    consumer.readUnits += batch.readUnits;
    consumer.writeUnits += batch.writeUnits;
    for (const [name, count] of Object.entries(batch.reactions)) consumer.reactions[name] = (consumer.reactions[name] ?? 0) + count;
  });
  try {
    const response = await fetch(`${bench.stack.server.url}${request.path}`, fetchInit(request));
    const text = await response.text();
    if (response.status !== expected) throw new Error(`${operation} answered ${response.status}: ${text}`);
    await bench.pollers.caughtUp(CAUGHT_UP_MS);
    consumer.failedConditions = failedConditions - failedBefore;
    const logged = bench.usage.take(response.headers.get('apigw-requestid') ?? undefined);
    const cost: OperationCost = {
      operation,
      consumer,
      ...(logged
        ? {
            request: { status: logged.status, calls: logged.dynamodbCalls, readUnits: logged.consumedCapacity.read, writeUnits: logged.consumedCapacity.write },
          }
        : {}),
    };
    return { cost, body: text ? JSON.parse(text) : null };
  } finally {
    onStreamBatch(undefined);
  }
}

/** Every operation of the bench on posts of `characters` characters of description. */
async function measurePost(bench: Bench, characters: number, seed: number): Promise<PostCost> {
  const random = randomSource(seed);
  const words = vocabulary(random, 30_000);
  const owner = await bench.stack.login();
  const reader = await bench.stack.login();
  const marker = `mark${randomUUID().replaceAll('-', '').slice(0, 8)}`;
  const title = `Index bench ${marker} alpha`;
  const description = zipfText(random, words, characters);
  const operations: OperationCost[] = [];
  const run = async (operation: string, request: { path: string } & ClientRequest, expected = 200) => {
    const { cost, body } = await measure(bench, operation, request, expected);
    operations.push(cost);
    return body as { slug: string };
  };

  const created = await run('create (published)', { path: '/posts', method: 'POST', token: owner.token, json: { title, description, publish: true } }, 201);
  let slug = created.slug;
  const edited = changeOneWord(title, description, 'editedwordz');
  await run('text edit (one word of the description)', { path: `/posts/detail/${slug}`, method: 'PUT', token: owner.token, json: { description: edited } });
  const renamed = await run('rename (one word of the title)', {
    path: `/posts/detail/${slug}`,
    method: 'PUT',
    token: owner.token,
    json: { title: title.replace('alpha', 'omega') },
  });
  slug = renamed.slug;
  await run('new tags', { path: `/posts/detail/${slug}`, method: 'PUT', token: owner.token, json: { tags: `Bench ${marker}, Index ${marker}` } });
  await run('visit (first, by another user)', { path: `/posts/detail/${slug}`, token: reader.token });
  await run('vote', { path: `/posts/detail/${slug}/vote`, method: 'POST', token: reader.token, json: { vote: 'up' } });
  await run('favorite', { path: `/posts/detail/${slug}/favorite`, method: 'POST', token: reader.token });

  const draft = await run('create (draft)', { path: '/posts', method: 'POST', token: owner.token, json: { title: `Index draft ${marker}`, description } }, 201);
  await run('publish of the draft', { path: `/posts/detail/${draft.slug}`, method: 'PUT', token: owner.token, json: { publish: true } });

  await run('delete', { path: `/posts/detail/${slug}`, method: 'DELETE', token: owner.token }, 204);
  return {
    characters,
    distinctWords: new Set(wordsOf(`${title} ${description}`)).size,
    terms: postTerms({ title, description, keywords: null, meta_description: null }).size,
    operations,
  };
}

export async function measureIndexWrites(stack: BenchStack, sizes: readonly number[]): Promise<PostCost[]> {
  countFailedConditions();
  const pollers = await startStreamPollers({ server: stack.server, tableName: tableName(), region: awsRegion() });
  const usage = recordRequestUsage();
  try {
    const results: PostCost[] = [];
    for (const [index, characters] of sizes.entries()) results.push(await measurePost({ stack, pollers, usage }, characters, 20261201 + index));
    return results;
  } finally {
    usage.detach();
    await pollers.stop();
  }
}

const units = (value: number) => String(Number(value.toFixed(1)));

/** The figures as a markdown table, one row per operation and size. */
export function costTable(results: readonly PostCost[]): string {
  const lines = [
    '| Post | Operation | Consumer WCU billed | of which failed conditions | Consumer calls | Consumer RCU | Request WCU | Request calls | Request RCU |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const { characters, distinctWords, terms, operations } of results) {
    for (const { operation, consumer, request } of operations) {
      const post = `${characters.toLocaleString('en')} chars, ${distinctWords.toLocaleString('en')} words, ${terms.toLocaleString('en')} terms`;
      const own = request ? [units(request.writeUnits), String(request.calls), units(request.readUnits)] : ['', '', ''];
      lines.push(
        `| ${post} | ${operation} | ${units(consumer.writeUnits + consumer.failedConditions)} | ${consumer.failedConditions} | ${consumer.calls} | ${units(consumer.readUnits)} | ${own.join(' | ')} |`,
      );
    }
  }
  return lines.join('\n');
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  useDefaults({ LOG_LEVEL: 'warn' });
  const stack = await startBenchStack();
  try {
    const results = await measureIndexWrites(stack, [1_000, 100_000]);
    console.log(
      `index writes, ${new Date().toISOString().slice(0, 10)}: the stream consumer's DynamoDB usage per operation (capacity as DynamoDB Local reports it)`,
    );
    console.log('');
    console.log(costTable(results));
  } finally {
    await stack.stop();
  }
}
