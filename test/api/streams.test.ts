import { randomUUID } from 'node:crypto';
import { DeleteCommand, GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { TABLE_STREAM_CONSUMER } from '../../infra/streams.ts';
import { db } from '#lib/db/client.ts';
import { keys, postLists } from '#lib/db/keys.ts';
import { functionName } from '#lib/routes.ts';
import type { FunctionRuntime } from '../../scripts/local/function-runtime.ts';
import { tableArn } from '../../scripts/local/iam-policy.ts';
import { checkpointOf, startStreamPoller, unplayedSettings, type DiscardedBatch, type StreamPoller } from '../../scripts/local/stream-poller.ts';
import { createPost, startApi, unique, type TestApi } from '../support/api.ts';
import { useApi } from '../support/fixture.ts';

// The table's stream consumer (functions/streams/table.ts) as deployed: fed by the local stream
// poller (scripts/local/stream-poller.ts) from DynamoDB Local's stream, with the events Lambda
// sends, through the function runtime of the run (sources, or the bundles of cdk.out) and under
// its role (the IAM guard). A post's deletion removes its `mine` list entry; the consumer then
// removes the post's visits.

const REGION = 'us-east-1';
const CONSUMER = functionName(TABLE_STREAM_CONSUMER.handler);

/** The visit items of a post, read straight from DynamoDB Local. */
async function visitsOf(postId: string): Promise<string[]> {
  const answer = await db().send(
    new QueryCommand({
      TableName: process.env.TABLE_NAME,
      KeyConditionExpression: 'PK = :pk',
      ExpressionAttributeValues: { ':pk': keys.visitsOf(postId) },
      ConsistentRead: true,
    }),
  );
  return (answer.Items ?? []).map((item) => String(item.SK));
}

/** Waits up to `ms` for the post's visits to be gone; how long it took. */
async function visitsGone(postId: string, ms = 10_000): Promise<number> {
  const start = Date.now();
  while ((await visitsOf(postId)).length > 0) {
    if (Date.now() - start > ms) throw new Error(`The visits of ${postId} are still there after ${ms} ms`);
    await new Promise((done) => setTimeout(done, 50));
  }
  return Date.now() - start;
}

const put = (item: Record<string, unknown>) => db().send(new PutCommand({ TableName: process.env.TABLE_NAME, Item: item }));
const remove = (key: { PK: string; SK: string }) => db().send(new DeleteCommand({ TableName: process.env.TABLE_NAME, Key: key }));

/** A post as the data model leaves it for the consumer: its `mine` entry, and visits by these users. */
async function entryWithVisits(postId: string, readers: number[], list = postLists.mine): Promise<void> {
  await put({ ...keys.postEntry(postId, list), post_id: postId, slug: `slug-${postId}`, publish: true, is_featured: false });
  for (const reader of readers) await put({ ...keys.visit(postId, reader), post_id: postId, user_id: reader, created: new Date().toISOString() });
}

describe('after a post is deleted, the stream consumer removes its visits', () => {
  const api = useApi({ users: ['alice', 'bob', 'carol'] });
  const { alice, bob, carol } = api.users;

  it('DELETE /posts/detail/{slug} of a post two readers visited: its visit items disappear', async () => {
    const post = await createPost(alice.api, { title: unique('Visited '), description: 'x', publish: 'true' });
    expect((await bob.api.get(`/posts/detail/${post.slug}`)).status).toBe(200);
    expect((await carol.api.get(`/posts/detail/${post.slug}`)).status).toBe(200);
    const text = await db().send(new GetCommand({ TableName: api.table, Key: keys.post(post.slug) }));
    const postId = String(text.Item?.id);
    expect(await visitsOf(postId)).toEqual([keys.visit(postId, bob.id).SK, keys.visit(postId, carol.id).SK].sort());
    // The deletion removes the post's `mine` entry (the documented data model), which the consumer sees.
    expect(await db().send(new GetCommand({ TableName: api.table, Key: keys.postEntry(postId, postLists.mine) }))).toHaveProperty('Item.post_id', postId);

    expect((await alice.api.delete(`/posts/detail/${post.slug}`)).status).toBe(204);
    await visitsGone(postId);
    // The consumer did it, under its role.
    expect(api.server.guard.used.get(CONSUMER)).toContain(`dynamodb:BatchWriteItem ${tableArn(REGION, api.table)}`);
  });

  it('reacts to the removal of a `mine` entry written straight into the table, and to nothing else', async () => {
    const [deleted, kept, modified] = [randomUUID(), randomUUID(), randomUUID()];
    await entryWithVisits(deleted, [1, 2, 3]);
    await entryWithVisits(kept, [1, 2], postLists.posts);
    await entryWithVisits(modified, [4]);
    expect(await visitsOf(deleted)).toHaveLength(3);

    // Another list's entry removed, and the `mine` entry changed: the post still exists.
    await remove(keys.postEntry(kept, postLists.posts));
    await db().send(
      new UpdateCommand({
        TableName: api.table,
        Key: keys.postEntry(modified, postLists.mine),
        UpdateExpression: 'SET slug = :s',
        ExpressionAttributeValues: { ':s': 'renamed' },
      }),
    );
    await remove(keys.postEntry(deleted, postLists.mine));
    await visitsGone(deleted);
    await api.streams!.caughtUp();
    expect(await visitsOf(kept)).toHaveLength(2);
    expect(await visitsOf(modified)).toHaveLength(1);
  });

  it('removes more visits than one page of BatchWriteItem holds', async () => {
    const postId = randomUUID();
    await entryWithVisits(
      postId,
      Array.from({ length: 60 }, (_, i) => i + 1),
    );
    expect(await visitsOf(postId)).toHaveLength(60);
    await remove(keys.postEntry(postId, postLists.mine));
    await visitsGone(postId);
  });
});

describe('the events the consumer gets, replayed', () => {
  // This file's own poller, recording what it delivers: the stack's is left out.
  const api = useApi({ streams: false });
  const delivered: DynamoDBStreamEvent[] = [];
  let poller: StreamPoller;

  beforeAll(async () => {
    const fn = api.server.deployment.functions.get(CONSUMER)!;
    const recording: FunctionRuntime = {
      invoke: (target, event, requestId) => {
        delivered.push(structuredClone(event) as DynamoDBStreamEvent);
        return api.server.runtime.invoke(target, event, requestId);
      },
      close: async () => {},
    };
    poller = await startStreamPoller({
      source: api.server.deployment.eventSources[0]!,
      fn,
      runtime: recording,
      guardUrl: api.server.guard.url,
      tableName: api.table,
      region: REGION,
    });
  });
  afterAll(() => poller?.stop());

  it('are shaped as Lambda sends them, and a second delivery of the same event changes nothing', async () => {
    const postId = randomUUID();
    await entryWithVisits(postId, [7, 8]);
    const before = Date.now();
    await remove(keys.postEntry(postId, postLists.mine));
    await visitsGone(postId);
    await poller.caughtUp();

    const event = delivered.find((batch) =>
      batch.Records.some((record) => record.eventName === 'REMOVE' && record.dynamodb?.Keys?.PK?.S === `ENTRY#${postId}`),
    )!;
    const record = event.Records.find((r) => r.eventName === 'REMOVE' && r.dynamodb?.Keys?.PK?.S === `ENTRY#${postId}`)!;
    expect(Object.keys(record)).toEqual(['eventID', 'eventName', 'eventVersion', 'eventSource', 'awsRegion', 'dynamodb', 'eventSourceARN']);
    expect(record).toMatchObject({
      eventID: expect.any(String),
      eventName: 'REMOVE',
      eventVersion: '1.1',
      eventSource: 'aws:dynamodb',
      awsRegion: REGION,
      eventSourceARN: expect.stringMatching(new RegExp(`^${tableArn(REGION, api.table)}/stream/.+`)),
    });
    expect(Object.keys(record.dynamodb!)).toEqual(['ApproximateCreationDateTime', 'Keys', 'OldImage', 'SequenceNumber', 'SizeBytes', 'StreamViewType']);
    expect(record.dynamodb).toMatchObject({
      Keys: { PK: { S: `ENTRY#${postId}` }, SK: { S: postLists.mine } },
      OldImage: { PK: { S: `ENTRY#${postId}` }, SK: { S: postLists.mine }, post_id: { S: postId } },
      SequenceNumber: expect.stringMatching(/^\d+$/),
      SizeBytes: expect.any(Number),
      StreamViewType: 'NEW_AND_OLD_IMAGES',
    });
    // Epoch seconds, rounded down (DynamoDB Local's minute made as precise as the read allows).
    const created = record.dynamodb!.ApproximateCreationDateTime!;
    expect(Number.isInteger(created)).toBe(true);
    expect(created).toBeGreaterThanOrEqual(Math.floor(before / 1000) - 1);
    expect(created).toBeLessThanOrEqual(Date.now() / 1000);
    // An INSERT carries the new image only (a text item: an entry's writes are not delivered).
    const slug = `shaped-${postId}`;
    await put({ ...keys.post(slug), note: 'not a post' });
    await poller.caughtUp();
    const insert = delivered.flatMap((batch) => batch.Records).find((r) => r.eventName === 'INSERT' && r.dynamodb?.Keys?.PK?.S === `POST#${slug}`)!;
    expect(Object.keys(insert.dynamodb!)).toEqual(['ApproximateCreationDateTime', 'Keys', 'NewImage', 'SequenceNumber', 'SizeBytes', 'StreamViewType']);

    // Lambda delivers a record again after a failure or a timeout: the same event, twice more,
    // through the same runtime and role. Nothing fails, nothing else is touched.
    const fn = api.server.deployment.functions.get(CONSUMER)!;
    const other = randomUUID();
    await entryWithVisits(other, [7, 8]);
    await poller.caughtUp();
    for (let i = 0; i < 2; i++) {
      const outcome = await api.server.runtime.invoke(fn, event, randomUUID());
      expect('payload' in outcome && (JSON.parse(outcome.payload) as DynamoDBBatchResponse)).toEqual({ batchItemFailures: [] });
      expect(await visitsOf(postId)).toEqual([]);
      expect(await visitsOf(other)).toHaveLength(2);
    }
    expect(api.server.guard.denials).toEqual([]);
  });
});

describe('a record the consumer fails on', () => {
  let api: TestApi;
  const discarded: DiscardedBatch[] = [];
  const reports: string[] = [];
  let poller: StreamPoller;

  beforeAll(async () => {
    // Its error lines are expected here.
    vi.stubEnv('LOG_LEVEL', 'silent');
    // The consumer's role without BatchWriteItem: it can find the visits, not remove them.
    api = await startApi({ streams: false, grants: { [CONSUMER]: { table: ['Query'], indexes: [] } } });
    poller = await startStreamPoller({
      source: api.server.deployment.eventSources[0]!,
      fn: api.server.deployment.functions.get(CONSUMER)!,
      runtime: api.server.runtime,
      guardUrl: api.server.guard.url,
      tableName: api.table,
      region: REGION,
      pollIntervalMs: 50,
      report: (message) => reports.push(message),
      onDiscard: (batch) => discarded.push(batch),
    });
  });
  afterAll(async () => {
    await poller?.stop();
    await api?.close();
    vi.unstubAllEnvs();
  });

  it('is delivered again from that record, up to the retry attempts, then given up; the records after it go on', async () => {
    const [failing, next] = [randomUUID(), randomUUID()];
    await entryWithVisits(failing, [1]);
    await poller.caughtUp();
    await remove(keys.postEntry(failing, postLists.mine));
    // An entry without visits: its removal needs no BatchWriteItem, so it succeeds once reached.
    await put({ ...keys.postEntry(next, postLists.mine), post_id: next });
    await remove(keys.postEntry(next, postLists.mine));
    await poller.caughtUp();

    expect(api.server.guard.denials.map((denial) => `${denial.identity} ${denial.permission.action}`)).toEqual(
      Array(TABLE_STREAM_CONSUMER.retryAttempts + 1).fill(`${CONSUMER} dynamodb:BatchWriteItem`),
    );
    // From the failed record to the end of its batch (how many records the batch held depends on
    // when the poller read them).
    expect(discarded).toHaveLength(1);
    expect(discarded[0]).toMatchObject({ condition: 'Function.PartialFailure' });
    expect(discarded[0]!.batchSize).toBeGreaterThanOrEqual(1);
    expect(reports.filter((line) => line.includes('reported record'))).toHaveLength(TABLE_STREAM_CONSUMER.retryAttempts + 1);
    expect(poller.stats.discardedBatches).toBe(1);
    expect(await visitsOf(failing)).toHaveLength(1);
  });
});

describe('partial batch responses, read as Lambda reads them', () => {
  const batch = ['11', '12', '13'].map((SequenceNumber) => ({ dynamodb: { SequenceNumber } }));
  it.each([
    ['an empty list', '{"batchItemFailures":[]}', undefined],
    ['a null list', '{"batchItemFailures":null}', undefined],
    ['an empty response', '{}', undefined],
    ['a null response', 'null', undefined],
    ['no response', '', undefined],
    ['the second record', '{"batchItemFailures":[{"itemIdentifier":"12"}]}', 1],
    ['several: the lowest', '{"batchItemFailures":[{"itemIdentifier":"13"},{"itemIdentifier":"12"}]}', 1],
    ['invalid JSON', '{', 0],
    ['an empty identifier', '{"batchItemFailures":[{"itemIdentifier":""}]}', 0],
    ['a null identifier', '{"batchItemFailures":[{"itemIdentifier":null}]}', 0],
    ['another key', '{"batchItemFailures":[{"id":"12"}]}', 0],
    ['a sequence number not in the batch', '{"batchItemFailures":[{"itemIdentifier":"99"}]}', 0],
  ])('%s', (_name, payload, expected) => {
    expect(checkpointOf(payload, batch)).toBe(expected);
  });
});

describe('mapping settings the poller does not play', () => {
  it('are none with the default settings, so the local stack reads the stream as the deployed mapping does', () => {
    expect(unplayedSettings(TABLE_STREAM_CONSUMER)).toEqual([]);
  });

  it('are named, to be told at start, when a template sets them', () => {
    expect(unplayedSettings({ parallelizationFactor: 4, maximumBatchingWindowSeconds: 5, maximumRecordAgeSeconds: 3600 })).toEqual([
      'parallelization factor 4',
      'batching window 5 s',
      'maximum record age 3600 s',
    ]);
  });
});
