import { freePort } from '../local/free-port.ts';

export { freePort };
import { randomUUID } from 'node:crypto';
import { createUser } from '#lib/auth/create-account.ts';
import { useTable } from '#lib/config.ts';
import { resetDb } from '#lib/db/client.ts';
import { startEmulator, type Emulator } from '../local/dynamodb-local.ts';
import { ensureTable } from '../local/ensure-table.ts';
import { startServer, type RunningServer } from '../local/server.ts';

// The benchmark's own stack: an in-memory DynamoDB Local and the local server in this process,
// its functions under their IAM roles as in `npm start`. A deployment has one table: each fresh
// table gets a gateway of its own (the IAM guard grants the functions that table only).


export interface BenchStack {
  emulator: Emulator;
  /** The gateway of the current table. */
  readonly server: RunningServer;
  /** Points the process, and a new gateway, at a new, empty table (lists then hold only what the caller adds). */
  freshTable(): Promise<string>;
  /** An account, logged in over HTTP. */
  login(username?: string): Promise<{ username: string; token: string }>;
  stop(): Promise<void>;
}

export async function startBenchStack(): Promise<BenchStack> {
  const emulator = await startEmulator({ port: await freePort() });
  useTable({ endpoint: emulator.endpoint });
  let server: RunningServer | undefined;
  const freshTable = async () => {
    const table = `bench-${randomUUID().slice(0, 8)}`;
    useTable({ tableName: table });
    resetDb();
    await ensureTable(table);
    await server?.close();
    server = await startServer({ port: 0 });
    return table;
  };
  await freshTable();
  return {
    emulator,
    get server() {
      return server!;
    },
    freshTable,
    async login(username = `bench${randomUUID().slice(0, 8)}`) {
      const password = 'benchmark password';
      await createUser(username, password);
      const response = await fetch(`${server!.url}/login`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ username, password }),
      });
      const { token } = (await response.json()) as { token: string };
      return { username, token };
    },
    async stop() {
      await server?.close();
      await emulator.stop();
    },
  };
}
