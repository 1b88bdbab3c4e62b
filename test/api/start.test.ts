import { spawn, type ChildProcess } from 'node:child_process';
import { createServer as createHttpServer } from 'node:http';
import { createConnection, createServer, type Server } from 'node:net';
import { networkInterfaces } from 'node:os';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { childEnvironment } from '../../scripts/local/settings.ts';
import { freePort } from '../../scripts/local/free-port.ts';
import { useApi } from '../support/fixture.ts';

// `npm start` as a newcomer runs it: its ports checked before anything starts (a taken one named,
// with what to do, never silently reused), DynamoDB Local on 127.0.0.1 only, and a banner whose
// URLs answer. Run as the command it is, in processes of its own.

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const api = useApi();
const started: ChildProcess[] = [];

afterAll(async () => {
  for (const child of started) if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
  await Promise.all(
    started.map((child) => (child.exitCode === null && child.signalCode === null ? new Promise((done) => child.once('exit', done)) : undefined)),
  );
});

/** The environment of a newcomer's shell: no DynamoDB endpoint, and no switch for the SDK's Node.js warning. */
function shellEnvironment(settings: Record<string, string>): NodeJS.ProcessEnv {
  const env = childEnvironment({ ACCESS_LOG: '0', IN_MEMORY: '1' });
  for (const name of ['DYNAMODB_ENDPOINT', 'DYNAMODB_PORT', 'PORT', 'TABLE_NAME', 'AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED']) delete env[name];
  return { ...env, ...settings };
}

interface Run {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<number | null>;
}

function npmStart(settings: Record<string, string>): Run {
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/start.ts'], {
    cwd: ROOT,
    env: shellEnvironment(settings),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  started.push(child);
  let stdout = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  return { child, stdout: () => stdout, stderr: () => stderr, exited };
}

/** Waits until the banner's last line (or the exit), then stops the command. */
async function bannerOf(run: Run, lastLine: RegExp): Promise<string> {
  const exited = run.exited.then(() => 'exited' as const);
  while (!lastLine.test(run.stdout())) {
    if ((await Promise.race([exited, new Promise((done) => setTimeout(() => done('waiting'), 100))])) === 'exited') {
      throw new Error(`npm start exited: ${run.stdout()}\n${run.stderr()}`);
    }
  }
  return run.stdout();
}

async function stop(run: Run): Promise<void> {
  run.child.kill('SIGTERM');
  await run.exited;
}

function listen(server: Server | ReturnType<typeof createHttpServer>, port: number): Promise<void> {
  return new Promise((done) => server.listen(port, '127.0.0.1', () => done()));
}

function close(server: Server | ReturnType<typeof createHttpServer>): Promise<void> {
  return new Promise((done) => server.close(() => done()));
}

/** Whether a TCP connection to host:port is accepted. */
function accepts(host: string, port: number): Promise<boolean> {
  return new Promise((done) => {
    const socket = createConnection({ host, port });
    socket.once('connect', () => {
      socket.destroy();
      done(true);
    });
    socket.once('error', () => done(false));
  });
}

describe('npm start, with a port taken', () => {
  it('refuses a DYNAMODB_PORT held by another program, names it and suggests another port', async () => {
    const [dynamodbPort, port] = [await freePort(), await freePort()];
    const other = createHttpServer((_request, response) => response.end('not DynamoDB'));
    await listen(other, dynamodbPort);
    try {
      const run = npmStart({ DYNAMODB_PORT: String(dynamodbPort), PORT: String(port) });
      expect(await run.exited).toBe(1);
      expect(run.stderr()).toContain(`Port ${dynamodbPort} (DYNAMODB_PORT), where npm start runs DynamoDB Local, is in use by another program.`);
      expect(run.stderr()).toMatch(new RegExp(`choose another port: PORT=${port} DYNAMODB_PORT=\\d+ npm start`));
      expect(run.stdout()).not.toContain('DynamoDB Local on');
      expect(await accepts('127.0.0.1', port)).toBe(false);
    } finally {
      await close(other);
    }
  });

  it('refuses a DYNAMODB_PORT held by another DynamoDB Local rather than serve its data, and says how to use it', async () => {
    const heldBy = new URL(process.env.DYNAMODB_ENDPOINT!);
    const run = npmStart({ DYNAMODB_PORT: heldBy.port, PORT: String(await freePort()) });
    expect(await run.exited).toBe(1);
    expect(run.stderr()).toContain(`Port ${heldBy.port} (DYNAMODB_PORT), where npm start runs DynamoDB Local, is taken by another DynamoDB Local (tables: `);
    expect(run.stderr()).toContain(api.table);
    expect(run.stderr()).toContain(`DYNAMODB_ENDPOINT=http://127.0.0.1:${heldBy.port} npm start`);
    expect(run.stdout()).not.toContain('API ready');
  });

  it('refuses a PORT held by another program before it starts DynamoDB Local', async () => {
    const [dynamodbPort, port] = [await freePort(), await freePort()];
    const other = createServer((socket) => socket.destroy());
    await listen(other, port);
    try {
      const run = npmStart({ DYNAMODB_PORT: String(dynamodbPort), PORT: String(port) });
      expect(await run.exited, `${run.stdout()}\n${run.stderr()}`).toBe(1);
      expect(run.stderr()).toContain(`Port ${port} (PORT), where npm start serves the API, is in use by another program.`);
      expect(run.stderr()).toMatch(new RegExp(`PORT=\\d+ DYNAMODB_PORT=${dynamodbPort} npm start`));
      expect(run.stderr()).not.toContain('EADDRINUSE');
      expect(run.stdout()).not.toContain('DynamoDB Local on');
      expect(await accepts('127.0.0.1', dynamodbPort)).toBe(false);
    } finally {
      await close(other);
    }
  });
});

describe('npm start, on free ports', () => {
  it('binds DynamoDB Local to 127.0.0.1 and prints URLs that answer (the site at / among them), the seed and, on an empty table, the create-user hint', async () => {
    const [dynamodbPort, port] = [await freePort(), await freePort()];
    const run = npmStart({ DYNAMODB_PORT: String(dynamodbPort), PORT: String(port) });
    const banner = await bannerOf(run, /^Ctrl\+C stops it\.$/m);
    try {
      const url = `http://127.0.0.1:${port}/api/v1`;
      expect(banner).toContain(`API ready at ${url} `);
      expect(banner).toContain(`Docs:       ${url}/docs (the index of the endpoints: ${url})`);
      expect(banner).toContain(`Demo data:  PORT=${port} DYNAMODB_PORT=${dynamodbPort} npm run seed`);
      expect(banner).toContain(`No user yet: PORT=${port} DYNAMODB_PORT=${dynamodbPort} npm run admin -- create-user --username alice`);
      // The site at /, beside the API, with the headers CloudFront sends.
      expect(banner).toContain(`Site:       http://127.0.0.1:${port}/ (web/dist`);
      const site = await fetch(`http://127.0.0.1:${port}/posts/any-deep-link`);
      expect(site.status).toBe(200);
      expect(site.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(site.headers.get('content-security-policy')).toContain("script-src 'self'");
      expect(await site.text()).toContain('<div id="app"></div>');
      const index = await fetch(url);
      expect(index.status).toBe(200);
      const links = (await index.json()) as { docs: string; openapi: string };
      expect(links.docs).toBe(`${url}/docs`);
      expect((await fetch(links.docs)).status).toBe(200);
      expect((await fetch(links.openapi)).status).toBe(200);

      // The AWS SDK's Node.js version warning is off in the scripts.
      expect(run.stderr()).not.toContain('NodeVersionSupportWarning');

      // DynamoDB Local answers on the loopback address only.
      expect(await accepts('127.0.0.1', dynamodbPort)).toBe(true);
      const external = Object.values(networkInterfaces())
        .flat()
        .filter((address) => address && !address.internal && address.family === 'IPv4')
        .map((address) => address!.address);
      for (const address of external) expect(await accepts(address, dynamodbPort), address).toBe(false);
    } finally {
      await stop(run);
    }
  });

  it('prints no create-user hint when the table has a user', async () => {
    await api.user('present');
    const run = npmStart({ DYNAMODB_ENDPOINT: process.env.DYNAMODB_ENDPOINT!, TABLE_NAME: api.table, PORT: String(await freePort()) });
    const banner = await bannerOf(run, /^Ctrl\+C stops it\.$/m);
    await stop(run);
    expect(banner).toContain(`Using DynamoDB at ${process.env.DYNAMODB_ENDPOINT}`);
    expect(banner).toContain(`DYNAMODB_ENDPOINT=${process.env.DYNAMODB_ENDPOINT} TABLE_NAME=${api.table} npm run seed`);
    expect(banner).toContain('Demo data:');
    expect(banner).not.toContain('No user yet');
  });
});
