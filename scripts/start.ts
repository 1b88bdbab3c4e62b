import { startEmulator, type Emulator } from './local/dynamodb-local.ts';
import { ensureTable } from './local/ensure-table.ts';
import { startServer } from './local/server.ts';
import { tableName } from '../lib/config.ts';

// `npm start`: DynamoDB Local (unless DYNAMODB_ENDPOINT is set), the table, and the API.

async function main(): Promise<void> {
  const port = Number(process.env.PORT || 3000);
  const dynamoPort = Number(process.env.DYNAMODB_PORT || 8000);
  const inMemory = process.env.IN_MEMORY === '1';
  process.env.AWS_REGION ||= 'us-east-1';

  let emulator: Emulator | undefined;
  if (!process.env.DYNAMODB_ENDPOINT) {
    emulator = await startEmulator({ port: dynamoPort, ...(inMemory ? {} : { dbPath: '.data' }) });
    process.env.DYNAMODB_ENDPOINT = emulator.endpoint;
    console.log(`DynamoDB Local on ${emulator.endpoint} (${inMemory ? 'in memory' : 'data in .data/'})`);
  } else {
    console.log(`Using DynamoDB at ${process.env.DYNAMODB_ENDPOINT}`);
  }

  let server: Awaited<ReturnType<typeof startServer>> | undefined;
  const stop = async (code: number) => {
    await server?.close();
    await emulator?.stop();
    process.exit(code);
  };
  process.once('SIGINT', () => void stop(0));
  process.once('SIGTERM', () => void stop(0));
  // If whatever started us (npm, a shell) goes away without passing a signal on, stop too,
  // rather than leave the API and a java process behind.
  const parent = process.ppid;
  setInterval(() => {
    if (process.ppid !== parent) void stop(0);
  }, 1000).unref();

  try {
    if (await ensureTable(tableName())) console.log(`Created table ${tableName()}`);
    server = await startServer({ port, accessLog: process.env.ACCESS_LOG !== '0' });
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    await stop(1);
    return;
  }
  console.log(`API ready at ${server.url}`);
  console.log('Create an account: npm run admin -- create-user --username alice --password "choose-one"');
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
