import { freePort } from '../local/free-port.ts';

export { freePort };
import { randomUUID } from 'node:crypto';
import { createUser } from '#lib/auth/create-account.ts';
import { useTable } from '../local/settings.ts';
import { resetDb } from '#lib/db/client.ts';
import { startEmulator, type Emulator } from '../local/dynamodb-local.ts';
import { ensureTable } from '../local/ensure-table.ts';
import { startServer, type RunningServer } from '../local/server.ts';

// The benchmark's own stack: an in-memory DynamoDB Local and the local server in this process,
// its functions under their IAM roles as in `npm start`. A deployment has one table: each fresh
// table gets a gateway of its own (the IAM guard grants the functions that table only) and a
// DynamoDB Local of its own, because the emulator keeps every stream record it wrote and a
// database's writes slow down as they pile up (docs/streams.md): 10,000 seeded posts would slow
// every section after them.

export interface BenchStack {
  /** The DynamoDB Local of the current table. */
  readonly emulator: Emulator;
  /** The gateway of the current table. */
  readonly server: RunningServer;
  /** Points the process, and a new gateway, at a new, empty table (lists then hold only what the caller adds). */
  freshTable(): Promise<string>;
  /** An account, logged in over HTTP. */
  login(username?: string): Promise<{ username: string; id: number; token: string }>;
  stop(): Promise<void>;
}

export async function startBenchStack(): Promise<BenchStack> {
  let emulator: Emulator | undefined;
  let server: RunningServer | undefined;
  const stopCurrent = async () => {
    await server?.close();
    await emulator?.stop();
  };
  const freshTable = async () => {
    await stopCurrent();
    emulator = await startEmulator({ port: await freePort() });
    const table = `bench-${randomUUID().slice(0, 8)}`;
    useTable({ tableName: table, endpoint: emulator.endpoint });
    resetDb();
    await ensureTable(table);
    server = await startServer({ port: 0 });
    return table;
  };
  await freshTable();
  return {
    get emulator() {
      return emulator!;
    },
    get server() {
      return server!;
    },
    freshTable,
    async login(username = `bench${randomUUID().slice(0, 8)}`) {
      const password = 'benchmark password';
      const { id } = await createUser(username, password);
      const response = await fetch(`${server!.url}/login`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ username, password }),
      });
      const { token } = (await response.json()) as { token: string };
      return { username, id, token };
    },
    stop: stopCurrent,
  };
}
