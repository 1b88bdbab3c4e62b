import { createServer, request, type Server } from 'node:http';
import { startEmulator, type Emulator } from '../../scripts/local/dynamodb-local.ts';

// The DynamoDB Locals of a run, lent to its connected test files: the run's main process owns them
// (global-setup.ts), a file borrows one for its life (dynamodb-local.ts) and gives it back. Each
// file makes its own tables and deletes them when done (api.ts), so files need no emulator of their
// own; but an emulator keeps every stream record it ever wrote, deleted tables' included, and each
// write with a stream costs more the more records it holds, so an emulator serves a few files, or
// files for a few minutes (the time a file holds it stands for what it wrote), and is then stopped.
// Sixteen short suites, two at a time: 106 s with an emulator per file, 80 s with one per 4 files,
// 67 s per 8 (docs/testing.md); an emulator warmed by the files before answers sooner. Reused after
// long files (8 files, 150 s), an emulator left a later suite's stream consumer minutes behind
// (posts-list.test.ts's searches found nothing): it is reused after short files only.

const setting = (name: string, fallback: number) => (Number(process.env[name]) > 0 ? Number(process.env[name]) : fallback);
/** How many test files one emulator serves before it is stopped (TEST_FILES_PER_EMULATOR). */
export const FILES_PER_EMULATOR = setting('TEST_FILES_PER_EMULATOR', 4);
/** How long files may hold an emulator in all before it is stopped (TEST_SECONDS_PER_EMULATOR). */
export const SECONDS_PER_EMULATOR = setting('TEST_SECONDS_PER_EMULATOR', 60);

interface Lent {
  emulator: Emulator;
  served: number;
  /** Milliseconds files have held it, and since when the current one has. */
  heldMs: number;
  since: number;
  /** The process of the file that has it; undefined while it waits for the next. */
  borrower?: number;
}

export interface EmulatorPool {
  url: string;
  close(): Promise<void>;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

export interface PoolOptions {
  /** How many files an emulator serves (default FILES_PER_EMULATOR). */
  filesPerEmulator?: number;
}

/** Starts the lender: `POST /borrow?pid=N` answers an endpoint and its id, `POST /return?id=I` takes it back. */
export async function startEmulatorPool({ filesPerEmulator = FILES_PER_EMULATOR }: PoolOptions = {}): Promise<EmulatorPool> {
  const emulators = new Map<number, Lent>();
  const stopping = new Set<Promise<void>>();
  let nextId = 1;

  const retire = (id: number) => {
    const lent = emulators.get(id);
    if (!lent) return;
    emulators.delete(id);
    const stopped = lent.emulator.stop().finally(() => stopping.delete(stopped));
    stopping.add(stopped);
  };

  const borrow = async (pid: number): Promise<{ id: number; endpoint: string }> => {
    // A file whose process died without giving its emulator back left tables in an unknown state.
    for (const [id, lent] of emulators) if (lent.borrower !== undefined && !alive(lent.borrower)) retire(id);
    for (const [id, lent] of emulators) {
      if (lent.borrower === undefined) {
        lent.borrower = pid;
        lent.since = Date.now();
        return { id, endpoint: lent.emulator.endpoint };
      }
    }
    const id = nextId++;
    // Port 0: the emulator binds one the system chooses (several may start at once). It lives for a
    // few files: the JVM's quick compiler only (shortLived).
    const emulator = await startEmulator({ port: 0, shortLived: true });
    emulators.set(id, { emulator, served: 0, heldMs: 0, since: Date.now(), borrower: pid });
    return { id, endpoint: emulator.endpoint };
  };

  const giveBack = (id: number) => {
    const lent = emulators.get(id);
    if (!lent) return;
    lent.served += 1;
    lent.heldMs += Date.now() - lent.since;
    lent.borrower = undefined;
    if (lent.served >= filesPerEmulator || lent.heldMs >= SECONDS_PER_EMULATOR * 1000) retire(id);
  };

  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://pool');
    const answer = (status: number, body: unknown) => {
      res.writeHead(status, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (req.method === 'POST' && url.pathname === '/borrow') {
      borrow(Number(url.searchParams.get('pid'))).then(
        (lent) => answer(200, lent),
        (error: unknown) => answer(500, { error: String(error) }),
      );
    } else if (req.method === 'POST' && url.pathname === '/return') {
      giveBack(Number(url.searchParams.get('id')));
      answer(200, {});
    } else {
      answer(404, {});
    }
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('The emulator pool did not get a port');
  return {
    url: `http://127.0.0.1:${address.port}`,
    close: async () => {
      await new Promise<void>((done) => server.close(() => done()));
      for (const id of [...emulators.keys()]) retire(id);
      await Promise.all(stopping);
    },
  };
}

function post(url: string): Promise<unknown> {
  return new Promise((done, fail) => {
    const req = request(url, { method: 'POST' }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const body: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        if (res.statusCode === 200) done(body);
        else fail(new Error(`The emulator pool answered ${res.statusCode}: ${JSON.stringify(body)}`));
      });
      res.on('error', fail);
    });
    req.on('error', fail);
    req.end();
  });
}

export interface BorrowedEmulator {
  endpoint: string;
  giveBack(): Promise<void>;
}

/** Borrows an emulator of the run's pool for this process (a test file). */
export async function borrowEmulator(poolUrl: string): Promise<BorrowedEmulator> {
  const { id, endpoint } = (await post(`${poolUrl}/borrow?pid=${process.pid}`)) as { id: number; endpoint: string };
  return { endpoint, giveBack: async () => void (await post(`${poolUrl}/return?id=${id}`)) };
}
