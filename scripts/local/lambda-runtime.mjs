// One instance of a bundled function, as Lambda runs it: a process of its own whose working
// folder holds only the bundle (no node_modules beside it), the handler module loaded from
// LAMBDA_TASK_ROOT by _HANDLER, one invocation at a time. Plain JavaScript, so that it runs on
// the Node.js that Lambda uses (22) without the project's TypeScript loader. The local server
// (scripts/local/bundle-runtime.ts) sends invocations over the IPC channel.
import { join } from 'node:path';
import process from 'node:process';
import { pathToFileURL } from 'node:url';

const [file, exportName] = process.env._HANDLER.split('.');

function describe(error) {
  return { errorType: error?.name ?? 'Error', errorMessage: String(error?.message ?? error) };
}

let handler;
try {
  const module = await import(pathToFileURL(join(process.env.LAMBDA_TASK_ROOT, `${file}.mjs`)).href);
  handler = module[exportName];
  if (typeof handler !== 'function') throw new Error(`${file}.${exportName} is not a function`);
} catch (error) {
  process.send({ initError: describe(error) });
  process.exit(1);
}

process.on('message', async ({ id, event, requestId, deadline, traceId }) => {
  // As Lambda's runtime does before each invocation: the X-Ray SDK reads the trace header here.
  process.env._X_AMZN_TRACE_ID = traceId;
  const context = {
    callbackWaitsForEmptyEventLoop: true,
    functionName: process.env.AWS_LAMBDA_FUNCTION_NAME,
    functionVersion: process.env.AWS_LAMBDA_FUNCTION_VERSION,
    invokedFunctionArn: `arn:aws:lambda:${process.env.AWS_REGION}:000000000000:function:${process.env.AWS_LAMBDA_FUNCTION_NAME}`,
    memoryLimitInMB: process.env.AWS_LAMBDA_FUNCTION_MEMORY_SIZE,
    awsRequestId: requestId,
    logGroupName: process.env.AWS_LAMBDA_LOG_GROUP_NAME,
    logStreamName: 'local',
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
  };
  try {
    const result = await handler(event, context);
    process.send({ id, payload: JSON.stringify(result ?? null) });
  } catch (error) {
    process.send({ id, error: describe(error) });
  }
});
process.send({ ready: true });
