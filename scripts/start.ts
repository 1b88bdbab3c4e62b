import './local/tool.ts';
import { startEmulator, type Emulator } from './local/dynamodb-local.ts';
import { ensureTable } from './local/ensure-table.ts';
import { nextFreePort, portHolder, type PortHolder } from './local/ports.ts';
import { startServer } from './local/server.ts';
import { startStreamPollers, type StreamPollers } from './local/stream-poller.ts';
import { awsRegion, dynamodbEndpoint, publicReads, tableName } from '#lib/config.ts';
import { localSettings, localToolVariables, publicReadVariables, useDefaults, useTable } from './local/settings.ts';
import { API_PREFIX } from '#lib/routes.ts';
import { anyUserCreated } from '#lib/users/any.ts';
import { join } from 'node:path';
import { ensureSite } from './web/site-build.ts';

// `npm start`: DynamoDB Local (unless DYNAMODB_ENDPOINT is set), the table, the API behind the
// local gateway and IAM guard, and the table's stream consumer fed by the stream poller
// (docs/streams.md). `npm start -- --bundles` runs the bundles `npm run synth` wrote to cdk.out
// instead of the sources, on LAMBDA_NODE (a Node.js 22 binary) when set. The site (web/) is served
// at / beside the API, built first when web/dist is missing or older than its sources;
// SERVE_SITE=0 leaves it out (`npm run dev` serves it from Vite instead).

/** `PORT=3001 npm run seed`: a command with the settings this `npm start` was given, so it reaches the same API and table. */
function command(text: string, settings: Record<string, string>): string {
  return [...Object.entries(settings).map(([name, value]) => `${name}=${value}`), text].join(' ');
}

/** Why `npm start` cannot have a port it needs, and what to do; undefined when the port is free. */
async function portProblem(port: number, variable: 'PORT' | 'DYNAMODB_PORT', settings: Record<string, string>): Promise<string | undefined> {
  const holder: PortHolder = await portHolder(port, API_PREFIX);
  if (holder.kind === 'free') return undefined;
  const other = await nextFreePort(port);
  const elsewhere = command('npm start', { ...settings, [variable]: String(other ?? port + 1) });
  const purpose = variable === 'PORT' ? 'serves the API' : 'runs DynamoDB Local';
  switch (holder.kind) {
    case 'dynamodb-local':
      return [
        `Port ${port} (${variable}), where npm start ${purpose}, is taken by another DynamoDB Local${holder.tables.length > 0 ? ` (tables: ${holder.tables.join(', ')})` : ''}, perhaps one an earlier npm start left behind.`,
        "npm start runs its own and does not silently serve another one's data. Stop that one, or:",
        `  use it:          ${command('npm start', { ...settings, DYNAMODB_ENDPOINT: `http://127.0.0.1:${port}` })}`,
        `  run a new one:   ${elsewhere}`,
      ].join('\n');
    case 'this-api':
      return `Port ${port} (${variable}), where npm start ${purpose}, is taken by this API: another npm start is running. Stop it, or run this one elsewhere: ${elsewhere}`;
    default:
      return `Port ${port} (${variable}), where npm start ${purpose}, is in use by another program. Stop it, or choose another port: ${elsewhere}`;
  }
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const unknown = args.filter((arg) => arg !== '--bundles');
  if (unknown.length > 0) {
    console.error(`Unknown option ${unknown.join(' ')}. Usage: npm start [-- --bundles]`);
    process.exit(2);
  }
  const bundles = args.includes('--bundles');
  const { port, dynamodbPort, inMemory, accessLog, lambdaNode } = localSettings();
  const settings = localToolVariables();
  useDefaults({ AWS_REGION: 'us-east-1' });

  // Both ports first, before anything starts: a taken one is the operator's to resolve.
  const given = dynamodbEndpoint();
  const problems = (await Promise.all([given ? undefined : portProblem(dynamodbPort, 'DYNAMODB_PORT', settings), portProblem(port, 'PORT', settings)])).filter(
    Boolean,
  );
  if (problems.length > 0) {
    console.error(problems.join('\n\n'));
    process.exit(1);
  }

  const root = join(import.meta.dirname, '..');
  const serveSite = process.env.SERVE_SITE !== '0';
  let siteNote = 'web/dist, current';
  if (serveSite) {
    try {
      const reason = ensureSite(root, (why) => console.log(`Building the site into web/dist (${why}) ...`));
      if (reason) siteNote = `web/dist, built now: it was ${reason}`;
    } catch (error) {
      console.error(`The site could not be built: ${error instanceof Error ? error.message : error}`);
      process.exit(1);
    }
  }

  let emulator: Emulator | undefined;
  if (!given) {
    emulator = await startEmulator({ port: dynamodbPort, ...(inMemory ? {} : { dbPath: '.data' }) });
    useTable({ endpoint: emulator.endpoint });
    console.log(`DynamoDB Local on ${emulator.endpoint} (${inMemory ? 'in memory' : 'data in .data/'})`);
    if (!emulator.loopbackOnly) {
      console.log(
        `  (listening on every network interface: this Java lacks the jdk.compiler module that binds it to 127.0.0.1; install a full JDK or JRE to keep it local)`,
      );
    }
  } else {
    console.log(`Using DynamoDB at ${given}`);
  }

  let server: Awaited<ReturnType<typeof startServer>> | undefined;
  let streams: StreamPollers | undefined;
  const stop = async (code: number) => {
    // The poller first: the batch in flight is answered before its function goes away.
    await streams?.stop();
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

  let hasUsers: boolean;
  try {
    if (await ensureTable(tableName())) console.log(`Created table ${tableName()}`);
    server = await startServer({
      port,
      accessLog,
      // PUBLIC_READS and PUBLIC_CACHE_SECONDS reach the bundles too, over the template's values.
      apiEnvironment: publicReadVariables(),
      ...(serveSite ? { siteRoot: join(root, 'web', 'dist') } : {}),
      ...(bundles ? { target: 'bundles' as const, cdkOut: 'cdk.out', functionOutput: 'inherit' as const, ...(lambdaNode ? { node: lambdaNode } : {}) } : {}),
    });
    streams = await startStreamPollers({ server, tableName: tableName(), region: awsRegion() });
    hasUsers = await anyUserCreated();
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    await stop(1);
    return;
  }
  console.log(
    `API ready at ${server.url} (${bundles ? `bundles from cdk.out on ${lambdaNode ?? `Node.js ${process.version}`}` : 'handlers from source'}, under their IAM roles)`,
  );
  for (const source of server.deployment.eventSources) {
    console.log(`Stream consumer ${source.functionName} reading ${source.streamArn} from LATEST (batches of ${source.batchSize})`);
  }
  if (publicReads()) console.log('Public reads: on (PUBLIC_READS=true): published posts, tags and profiles answer without a token');
  if (serveSite) console.log(`Site:       ${new URL('/', server.url).href} (${siteNote})`);
  console.log(`Docs:       ${server.url}/docs (the index of the endpoints: ${server.url})`);
  console.log(`Demo data:  ${command('npm run seed', settings)}   (users, tags and posts; prints the logins)`);
  if (!hasUsers) console.log(`No user yet: ${command('npm run admin -- create-user --username alice', settings)}   (asks for the password)`);
  console.log('Ctrl+C stops it.');
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
