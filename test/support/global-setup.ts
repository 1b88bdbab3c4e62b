import { createServer } from 'node:net';
import type { TestProject } from 'vitest/node';
import { startEmulator } from '../../scripts/local/dynamodb-local.ts';

// One DynamoDB Local, in memory, for the whole run; each test file makes its own table in it.

declare module 'vitest' {
  export interface ProvidedContext {
    dynamodbEndpoint: string;
  }
}

function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => done(port));
    });
  });
}

export default async function setup(project: TestProject) {
  const emulator = await startEmulator({ port: await freePort() });
  project.provide('dynamodbEndpoint', emulator.endpoint);
  return async () => {
    await emulator.stop();
  };
}
