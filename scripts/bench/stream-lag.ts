import { pathToFileURL } from 'node:url';
import { randomUUID } from 'node:crypto';
import { BatchWriteCommand, DeleteCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { awsRegion, positiveSetting, searchTableName, tableName } from '#lib/config.ts';
import { useDefaults } from '../local/settings.ts';
import { db } from '#lib/db/client.ts';
import { keys, postLists, termPartition } from '#lib/db/keys.ts';
import { queryTerm } from '#lib/search/terms.ts';
import { newPost, postTextItem } from '#lib/posts/post.ts';
import { isoTimestamp } from '#lib/time.ts';
import type { RunningServer } from '../local/server.ts';
import { DEFAULT_POLL_INTERVAL_MS, startStreamPollers, type StreamPollers } from '../local/stream-poller.ts';
import { startBenchStack } from './stack.ts';

// The lag of the table's stream consumer, end to end on the local stack, as a client polling
// DynamoDB sees it: from the deletion of a post's `mine` entry (what a post's deletion does,
// lib/reactions/post-removal.ts) to the moment its visits are gone, and from the write of a post's text item
// to the moment the search index holds its words (lib/search/indexing.ts). Both take in the stream
// poller's interval (250 ms, Lambda's rate), the consumer's invocation and its calls.
//
//   node --import tsx scripts/bench/stream-lag.ts      # its own in-memory stack; prints the figures

export interface StreamLagOptions {
  /** The running local stack whose table is measured (its table: TABLE_NAME). */
  server: RunningServer;
  /** A poller already feeding the consumer; default: one started for the measurement. */
  pollers?: StreamPollers;
  /** Deletions measured; default 5. */
  runs?: number;
  /** Visits each deleted post has; default 10. */
  visits?: number;
}

export interface StreamLagResult {
  runs: number;
  visits: number;
  /** Each run's time from the deletion to the visits gone, in milliseconds. */
  samplesMs: number[];
  medianMs: number;
  minMs: number;
  maxMs: number;
  /** From a post text's write to its words in the search index (a post of 20 distinct words). */
  index: { samplesMs: number[]; medianMs: number; minMs: number; maxMs: number };
}

/** A post of 20 distinct words, one of them `marker`, as its text item. */
function textItem(marker: string) {
  const description = Array.from({ length: 18 }, (_, i) => `word${i}`).join(' ');
  const post = newPost(
    { userId: 1, username: 'bench', token: '' },
    { title: `Lag ${marker}`, description, publish: true },
    { slug: `lag-${randomUUID()}`, slugBase: 'lag' },
    [],
    isoTimestamp(),
  );
  return postTextItem(post);
}

async function indexed(marker: string): Promise<boolean> {
  const answer = await db().send(
    new QueryCommand({
      TableName: searchTableName(),
      KeyConditionExpression: 'PK = :pk',
      ExpressionAttributeValues: { ':pk': termPartition(queryTerm(marker).term) },
      Select: 'COUNT',
      ConsistentRead: true,
    }),
  );
  return (answer.Count ?? 0) > 0;
}

const round = (ms: number) => Number(ms.toFixed(1));

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

async function visitCount(postId: string): Promise<number> {
  const answer = await db().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'PK = :pk',
      ExpressionAttributeValues: { ':pk': keys.visitsOf(postId) },
      Select: 'COUNT',
      ConsistentRead: true,
    }),
  );
  return answer.Count ?? 0;
}

/** Deletes `runs` posts' `mine` entries one after the other and times how long their visits outlive them. */
export async function measureStreamLag(options: StreamLagOptions): Promise<StreamLagResult> {
  const runs = options.runs ?? 5;
  const visits = options.visits ?? 10;
  const pollers = options.pollers ?? (await startStreamPollers({ server: options.server, tableName: tableName(), region: awsRegion() }));
  const samples: number[] = [];
  const indexSamples: number[] = [];
  try {
    for (let run = 0; run < runs; run++) {
      const postId = randomUUID();
      await db().send(new PutCommand({ TableName: tableName(), Item: { ...keys.postEntry(postId, postLists.mine), post_id: postId } }));
      const items = Array.from({ length: visits }, (_, i) => ({ PutRequest: { Item: { ...keys.visit(postId, i + 1), post_id: postId, user_id: i + 1 } } }));
      for (let start = 0; start < items.length; start += 25) {
        await db().send(new BatchWriteCommand({ RequestItems: { [tableName()]: items.slice(start, start + 25) } }));
      }
      // The consumer has seen those writes: the measurement starts from a quiet stream, at a random
      // moment of the poll interval (right after catching up, it would always wait a whole one).
      await pollers.caughtUp();
      await new Promise((done) => setTimeout(done, Math.random() * DEFAULT_POLL_INTERVAL_MS));
      const started = performance.now();
      await db().send(new DeleteCommand({ TableName: tableName(), Key: keys.postEntry(postId, postLists.mine) }));
      while ((await visitCount(postId)) > 0) {
        if (performance.now() - started > 30_000) throw new Error(`The visits of ${postId} were still there after 30 s`);
        await new Promise((done) => setTimeout(done, 5));
      }
      samples.push(round(performance.now() - started));
    }
    for (let run = 0; run < runs; run++) {
      const marker = `lag${randomUUID().replaceAll('-', '')}`;
      await pollers.caughtUp();
      await new Promise((done) => setTimeout(done, Math.random() * DEFAULT_POLL_INTERVAL_MS));
      const started = performance.now();
      await db().send(new PutCommand({ TableName: tableName(), Item: textItem(marker) }));
      while (!(await indexed(marker))) {
        if (performance.now() - started > 30_000) throw new Error(`The word ${marker} was not indexed after 30 s`);
        await new Promise((done) => setTimeout(done, 5));
      }
      indexSamples.push(round(performance.now() - started));
    }
  } finally {
    if (!options.pollers) await pollers.stop();
  }
  return {
    runs,
    visits,
    samplesMs: samples,
    medianMs: round(median(samples)),
    minMs: Math.min(...samples),
    maxMs: Math.max(...samples),
    index: { samplesMs: indexSamples, medianMs: round(median(indexSamples)), minMs: Math.min(...indexSamples), maxMs: Math.max(...indexSamples) },
  };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  // The consumer's JSON lines (one per batch) would drown the figures.
  useDefaults({ LOG_LEVEL: 'warn' });
  const stack = await startBenchStack();
  try {
    const result = await measureStreamLag({ server: stack.server, runs: positiveSetting('BENCH_STREAM_RUNS', 5) });
    console.log(
      `stream lag, deletion to visits gone (${result.runs} runs, ${result.visits} visits each): median ${result.medianMs} ms, min ${result.minMs} ms, max ${result.maxMs} ms`,
    );
    const index = result.index;
    console.log(
      `stream lag, post text written to its words indexed (${result.runs} runs, 20 words): median ${index.medianMs} ms, min ${index.minMs} ms, max ${index.maxMs} ms`,
    );
    console.log(JSON.stringify(result));
  } finally {
    await stack.stop();
  }
}
