import { randomUUID } from 'node:crypto';
import { afterAll, inject } from 'vitest';

// Each connected test file (a setup file of the `api` projects and of the bundles' run) works in a
// database of its own in the run's DynamoDB Local (global-setup.ts): the emulator runs without
// -sharedDb, so it keeps a database per access key, and this file's key is its own. Everything the
// file runs signs with it: its tools and handlers (lib/config.ts localCredentials), the IAM guard
// in front of its functions, the CLIs it spawns.
//
// Not one database for the run: DynamoDB Local makes every write with a stream cost more the more
// stream records its database holds from other tables, deleted ones' included (8 concurrent
// 8-item transactions on a new table: 4.5 ms of CPU each, 66 ms once another table of the same
// database had 10,000 records, 177 ms once that table was deleted; 4–5 ms in a database of its
// own), so a suite would run slower the later it came. Not an emulator per file either: each JVM
// start cost about 2 CPU-seconds and its first thousand requests about 3 more while its code
// compiled (docs/testing.md).
//
// A test process runs several files one after the other (vitest.config.ts, `isolate: false`): the
// environment is the file's, and goes back to what it was once the file is done (this hook,
// registered first, runs after the file's own).

const environment = { ...process.env };
process.env.DYNAMODB_ENDPOINT = inject('dynamodbEndpoint');
process.env.AWS_ACCESS_KEY_ID = `suite${randomUUID().replace(/-/g, '').slice(0, 12)}`;

afterAll(() => {
  for (const name of Object.keys(process.env)) if (!(name in environment)) delete process.env[name];
  Object.assign(process.env, environment);
});
