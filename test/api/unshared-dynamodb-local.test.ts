import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resetDb } from '#lib/db/client.ts';
import { freePort } from '../../scripts/local/free-port.ts';
import { startEmulator, type Emulator } from '../../scripts/local/dynamodb-local.ts';
import { createPost, startApi, unique, type TestApi, type TestUser } from '../support/api.ts';

// `DYNAMODB_ENDPOINT=... npm start` against a DynamoDB Local started its own default way (no
// -sharedDb, as `java -jar DynamoDBLocal.jar -inMemory` and the official image run it), which keeps
// a database per access key: the local functions sign with keys of their own (the IAM guard knows
// each function by its key), yet everything the stack sends reaches the one database the tools
// (admin CLI, seed) created the table in. The server and the stream poller as `npm start` runs them.

let emulator: Emulator | undefined;
let api: TestApi | undefined;
let alice: TestUser;
const sharedEndpoint = process.env.DYNAMODB_ENDPOINT;

beforeAll(async () => {
  emulator = await startEmulator({ port: await freePort(), sharedDb: false });
  process.env.DYNAMODB_ENDPOINT = emulator.endpoint;
  resetDb();
  api = await startApi();
  // As the admin CLI creates an account, then a login over HTTP (the login function reads it).
  alice = await api.user('alice');
});

afterAll(async () => {
  await api?.close();
  await emulator?.stop();
  process.env.DYNAMODB_ENDPOINT = sharedEndpoint;
  resetDb();
});

describe('the local stack on a DynamoDB Local without -sharedDb', () => {
  it('creates a post, reads it back, and the stream consumer indexes it for search', async () => {
    const word = unique('unshared');
    const post = await createPost(alice.api, { title: `Notes on ${word}`, description: 'one database for the whole stack', publish: 'true' });

    const read = await alice.api.get(`/posts/detail/${post.slug}`);
    expect(read.status, read.text).toBe(200);
    expect(read.body).toMatchObject({ slug: post.slug, title: `Notes on ${word}` });

    await api!.streams!.caughtUp();
    const [poller] = api!.streams!.pollers;
    expect(poller!.stats.records).toBeGreaterThan(0);
    expect(poller!.stats.failedInvocations).toBe(0);

    const found = await alice.api.get('/posts', { query: { q: word } });
    expect(found.status, found.text).toBe(200);
    expect(found.body.map((result: { slug: string }) => result.slug)).toEqual([post.slug]);
  });
});
