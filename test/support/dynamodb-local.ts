import { afterAll, beforeAll } from 'vitest';
import { freePort } from '../../scripts/local/free-port.ts';
import { startEmulator, type Emulator } from '../../scripts/local/dynamodb-local.ts';

// Each connected test file gets a DynamoDB Local of its own (a setup file of the `api` project and
// of the bundles' run). One emulator for a whole run slowed every later suite: DynamoDB Local keeps
// every stream record it ever wrote, deleted tables' included, and each write with a stream costs
// more the more records it holds (8 concurrent 8-item transactions: 15 ms each on a fresh emulator,
// 51 ms after 10,000 records; 7 ms without a stream). DynamoDB's streams do not slow writes so.

let emulator: Emulator | undefined;

beforeAll(async () => {
  emulator = await startEmulator({ port: await freePort() });
  process.env.DYNAMODB_ENDPOINT = emulator.endpoint;
});

afterAll(async () => {
  await emulator?.stop();
});
