import { BatchWriteCommand, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { newCommentId, newCommentWrites, PREVIEW_REPLIES, type CommentRecord } from '#lib/comments/comment.ts';
import { db } from '#lib/db/client.ts';
import type { Item } from '#lib/db/batch.ts';
import { keys, listSortKeys } from '#lib/db/keys.ts';
import { tableName } from '#lib/config.ts';
import { isoTimestamp, nowMicros } from '#lib/time.ts';
import { fetchInit } from '../local/client-request.ts';
import { attachMeter } from './meter.ts';
import type { OperationUsage } from './operations.ts';
import type { BenchStack } from './stack.ts';

// Part 1b: the comments of v1.3 §6: a page of threads on a post with 10 comments and on one with
// 10,000, a page of replies, a create and a reply, and 20 creates at once on one post (calls,
// round trips and capacity; the parallel creates' statuses). The 10,000 are written straight to
// the table, as the API would have stored them (lib/comments/comment.ts builds every item).

/** Threads of the large post, each with REPLIES_EACH replies: 10,000 comments. */
const THREADS = 2_000;
const REPLIES_EACH = 4;
const BATCH_ITEMS = 25;
const BATCHES_IN_FLIGHT = 8;

/** The items of one stored comment, as its create writes them (its count set where the create would ADD it). */
function commentItems(comment: CommentRecord, extra: { lastReply?: string } = {}): Item[] {
  return newCommentWrites(comment).map((write) => {
    const item = { ...(write.write.Put!.Item as Item) };
    if (comment.thread === null) item.total_replies = comment.total_replies;
    if (item.SK === keys.commentHead(comment.id).SK && extra.lastReply) item.last_reply = extra.lastReply;
    return item;
  });
}

/** 10,000 comments on the post `postId` (stats under `slug`) by `author`: 2,000 threads of 1 + 4. */
async function bulkComments(postId: string, slug: string, author: { username: string; id: number }): Promise<void> {
  const start = nowMicros() - THREADS * (REPLIES_EACH + 1) * 1000;
  const items: Item[] = [];
  let lastThread = '';
  let micros = start;
  const record = (thread: CommentRecord | null, i: number): CommentRecord => {
    const id = newCommentId();
    const created = isoTimestamp((micros += 1000));
    return {
      id,
      post_id: postId,
      thread: thread?.id ?? null,
      thread_sk: thread?.sk ?? null,
      sk: listSortKeys.comment(created, id),
      in_reply_to: thread?.id ?? null,
      author: author.username,
      author_id: author.id,
      body: `Comment ${i}: ${'a few words of a comment '.repeat(6)}`,
      created,
      modified: created,
      edited: false,
      status: 'published',
      hidden_by: null,
      total_replies: thread ? 0 : REPLIES_EACH,
      preview: thread !== null && i < PREVIEW_REPLIES,
      version: 1,
    };
  };
  for (let t = 0; t < THREADS; t++) {
    const thread = record(null, t);
    const replies = Array.from({ length: REPLIES_EACH }, (_, i) => record(thread, i));
    items.push(...commentItems(thread, { lastReply: replies.at(-1)!.sk }), ...replies.flatMap((reply) => commentItems(reply)));
    lastThread = thread.sk;
  }
  const batches = Array.from({ length: Math.ceil(items.length / BATCH_ITEMS) }, (_, i) => items.slice(i * BATCH_ITEMS, (i + 1) * BATCH_ITEMS));
  let next = 0;
  await Promise.all(
    Array.from({ length: BATCHES_IN_FLIGHT }, async () => {
      while (next < batches.length) {
        let requests: Record<string, unknown>[] = batches[next++]!.map((Item) => ({ PutRequest: { Item } }));
        while (requests.length > 0) {
          const response = await db().send(new BatchWriteCommand({ RequestItems: { [tableName()]: requests as never } }));
          requests = (response.UnprocessedItems?.[tableName()] ?? []) as Record<string, unknown>[];
        }
      }
    }),
  );
  await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.postStats(slug),
      UpdateExpression: 'ADD total_comments :n SET last_thread = :thread',
      ExpressionAttributeValues: { ':n': THREADS * (REPLIES_EACH + 1), ':thread': lastThread },
    }),
  );
}

export async function measureComments(stack: BenchStack): Promise<OperationUsage[]> {
  await stack.freshTable();
  // The rate limits out of the way: the bench writes far more than a person would.
  const limits = { COMMENTS_PER_MINUTE: process.env.COMMENTS_PER_MINUTE, COMMENTS_PER_DAY: process.env.COMMENTS_PER_DAY };
  process.env.COMMENTS_PER_MINUTE = '1000000';
  process.env.COMMENTS_PER_DAY = '1000000';
  try {
    const alice = await stack.login();
    const bob = await stack.login();
    const crowd = await Promise.all(Array.from({ length: 20 }, () => stack.login()));
    const send = (path: string, init: { method?: string; token?: string; json?: unknown } = {}) =>
      fetch(`${stack.server.url}${path}`, fetchInit({ ...init, token: init.token ?? alice.token }));
    const newPost = async (title: string) =>
      (await (await send('/posts', { method: 'POST', json: { title, description: 'A post to comment on.', publish: true } })).json()) as {
        slug: string;
      };
    const comment = async (slug: string, body: string, parent?: string) =>
      (await (await send(`/posts/detail/${slug}/comments`, { method: 'POST', token: bob.token, json: { body, ...(parent ? { parent } : {}) } })).json()) as {
        id: string;
      };

    const small = await newPost(`Ten comments ${Date.now()}`);
    const threads: string[] = [];
    for (let i = 0; i < 7; i++) threads.push((await comment(small.slug, `Thread ${i}: ${'a few words of a comment '.repeat(6)}`)).id);
    for (let i = 0; i < 3; i++) await comment(small.slug, `Reply ${i}`, threads[0]);
    const large = await newPost(`Ten thousand comments ${Date.now()}`);
    await bulkComments(await postIdOf(large.slug), large.slug, alice);
    const largeThread = ((await (await send(`/posts/detail/${large.slug}/comments?page_size=1`)).json()) as { id: string }[])[0]!.id;

    const meter = attachMeter();
    const results: OperationUsage[] = [];
    const measure = async (operation: string, requests: () => Promise<Response[]>) => {
      const statuses: number[] = [];
      let bytes = 0;
      const usage = await meter.measure(async () => {
        for (const response of await requests()) {
          statuses.push(response.status);
          bytes += (await response.arrayBuffer()).byteLength;
        }
      });
      const worst = Math.max(...statuses);
      results.push({ operation, status: worst, bytes, ...usage });
    };
    try {
      await measure('comments: threads page, post of 10 comments', async () => [await send(`/posts/detail/${small.slug}/comments`)]);
      await measure('comments: threads page, post of 10,000 comments', async () => [await send(`/posts/detail/${large.slug}/comments`)]);
      await measure('comments: replies page, thread of 4', async () => [await send(`/comments/detail/${largeThread}/replies`)]);
      await measure('comments: one comment', async () => [await send(`/comments/detail/${largeThread}`)]);
      await measure('comments: create, post of 10,000 comments', async () => [
        await send(`/posts/detail/${large.slug}/comments`, { method: 'POST', token: bob.token, json: { body: 'A new thread.' } }),
      ]);
      await measure('comments: reply, thread of 4 replies', async () => [
        await send(`/posts/detail/${large.slug}/comments`, { method: 'POST', token: bob.token, json: { body: 'A reply.', parent: largeThread } }),
      ]);
      const parallel = await newPost(`Twenty at once ${Date.now()}`);
      await measure('comments: 20 creates at once on one post (all of them)', () =>
        Promise.all(
          crowd.map((user, i) => send(`/posts/detail/${parallel.slug}/comments`, { method: 'POST', token: user.token, json: { body: `Together ${i}` } })),
        ),
      );
      const counted = (await (await send(`/posts/detail/${parallel.slug}`)).json()) as { total_comments: number };
      if (counted.total_comments !== 20) throw new Error(`20 creates at once counted ${counted.total_comments}`);
    } finally {
      meter.detach();
    }
    return results;
  } finally {
    for (const [name, value] of Object.entries(limits)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
}

/** The stable id of the post stored under `slug`. */
async function postIdOf(slug: string): Promise<string> {
  const item = (await db().send(new GetCommand({ TableName: tableName(), Key: keys.postStats(slug), ConsistentRead: true }))).Item;
  if (!item) throw new Error(`no post ${slug}`);
  return String(item.post_id);
}
