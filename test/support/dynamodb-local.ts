import { afterAll, beforeAll } from 'vitest';
import { startEmulator, type Emulator } from '../../scripts/local/dynamodb-local.ts';

// Each connected test file gets a DynamoDB Local of its own (a setup file of the `api` projects and
// of the bundles' run). One emulator for a whole run slowed every later suite: DynamoDB Local keeps
// every stream record it ever wrote, deleted tables' included, and each write with a stream costs
// more the more records it holds (8 concurrent 8-item transactions: 15 ms each on a fresh emulator,
// 51 ms after 10,000 records; 7 ms without a stream). DynamoDB's streams do not slow writes so.

let emulator: Emulator | undefined;

beforeAll(async () => {
  // Port 0: the emulator binds one the system chooses (files start emulators at once: none may
  // take a port another found free a moment before). It lives as long as the file: shortLived.
  emulator = await startEmulator({ port: 0, shortLived: true });
  process.env.DYNAMODB_ENDPOINT = emulator.endpoint;
});

afterAll(async () => {
  await emulator?.stop();
});
