import { startEmulator, type Emulator } from './local/dynamodb-local.ts';
import { ensureTable } from './local/ensure-table.ts';
import { startServer } from './local/server.ts';
import { startStreamPollers, type StreamPollers } from './local/stream-poller.ts';
import { awsRegion, dynamodbEndpoint, localSettings, tableName, useDefaults, useTable } from '#lib/config.ts';

// `npm start`: DynamoDB Local (unless DYNAMODB_ENDPOINT is set), the table, the API behind the
// local gateway and IAM guard, and the table's stream consumer fed by the stream poller
// (docs/streams.md). `npm start -- --bundles` runs the bundles `npm run synth` wrote to cdk.out
// instead of the sources, on LAMBDA_NODE (a Node.js 22 binary) when set.

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const unknown = args.filter((arg) => arg !== '--bundles');
  if (unknown.length > 0) {
    console.error(`Unknown option ${unknown.join(' ')}. Usage: npm start [-- --bundles]`);
    process.exit(2);
  }
  const bundles = args.includes('--bundles');
  const { port, dynamodbPort, inMemory, accessLog, lambdaNode } = localSettings();
  useDefaults({ AWS_REGION: 'us-east-1' });

  let emulator: Emulator | undefined;
  const given = dynamodbEndpoint();
  if (!given) {
    emulator = await startEmulator({ port: dynamodbPort, ...(inMemory ? {} : { dbPath: '.data' }) });
    useTable({ endpoint: emulator.endpoint });
    console.log(`DynamoDB Local on ${emulator.endpoint} (${inMemory ? 'in memory' : 'data in .data/'})`);
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

  try {
    if (await ensureTable(tableName())) console.log(`Created table ${tableName()}`);
    server = await startServer({
      port,
      accessLog,
      ...(bundles
        ? { target: 'bundles' as const, cdkOut: 'cdk.out', functionOutput: 'inherit' as const, ...(lambdaNode ? { node: lambdaNode } : {}) }
        : {}),
    });
    streams = await startStreamPollers({ server, tableName: tableName(), region: awsRegion() });
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    await stop(1);
    return;
  }
  console.log(`API ready at ${server.url} (${bundles ? `bundles from cdk.out on ${lambdaNode ?? `Node.js ${process.version}`}` : 'handlers from source'}, under their IAM roles)`);
  for (const source of server.deployment.eventSources) {
    console.log(`Stream consumer ${source.functionName} reading ${source.streamArn} from LATEST (batches of ${source.batchSize})`);
  }
  console.log('Create an account: npm run admin -- create-user --username alice --password "choose-one"');
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
