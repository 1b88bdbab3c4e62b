import { afterAll, beforeAll, inject } from 'vitest';
import { borrowEmulator, type BorrowedEmulator } from './emulator-pool.ts';

// Each connected test file borrows a DynamoDB Local of the run's pool for its life (a setup file of
// the `api` projects and of the bundles' run; emulator-pool.ts says why and for how many files).

let emulator: BorrowedEmulator | undefined;

beforeAll(async () => {
  emulator = await borrowEmulator(inject('emulatorPool'));
  process.env.DYNAMODB_ENDPOINT = emulator.endpoint;
});

afterAll(async () => {
  await emulator?.giveBack();
});
