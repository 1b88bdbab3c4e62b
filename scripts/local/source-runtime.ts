import { InvokeStore, InvokeStoreBase } from '@aws/lambda-invoke-store';
import type { Context } from 'aws-lambda';
import { runConcurrentInvocations } from './settings.ts';
import { dynamodb } from '#lib/db/client.ts';
import type { LocalFunction } from './deployment.ts';
import { routeThroughGuard, runAsFunction } from './function-identity.ts';
import type { FunctionRuntime, InvokeOutcome } from './function-runtime.ts';
import { lambdaContext } from './gateway-event.ts';

type Handler = (event: object, context: Context) => Promise<unknown>;

// Every function's invocations run concurrently in this one process, sharing module state such as
// Powertools' Logger and Metrics. Lambda runs concurrent invocations in one environment on managed
// instances, and Powertools keeps per-invocation state (the Lambda context on each log line, the
// metrics of a request) apart there through the runtime's InvokeStore: the same is done here, so
// that a stream batch handled alongside a request cannot stamp its context on the request's lines.
// The store must be made before anything else asks for one (the AWS SDK does, on its first call),
// or the first asker's single-invocation kind is the process's for good: hence at import.
runConcurrentInvocations(64);
const invocations = await InvokeStore.getInstanceAsync(true);
if (!invocations.run({}, () => invocations.hasContext()) || invocations.hasContext()) {
  throw new Error('the InvokeStore was made for one invocation at a time before the local runtime loaded');
}

/**
 * The handlers from source, in this process (npm start, npm test): fast to start and easy to
 * observe, with every DynamoDB call made as the function and checked by the IAM guard.
 */
export class SourceRuntime implements FunctionRuntime {
  private readonly modules = new Map<string, Promise<Handler>>();

  constructor(private readonly guardUrl: string) {}

  private load(handler: string): Promise<Handler> {
    let loaded = this.modules.get(handler);
    if (!loaded) {
      const file = new URL(`../../functions/${handler}.ts`, import.meta.url).href;
      loaded = import(/* @vite-ignore */ file).then((module: { handler: Handler }) => module.handler);
      this.modules.set(handler, loaded);
    }
    return loaded;
  }

  async invoke(fn: LocalFunction, event: object, requestId: string): Promise<InvokeOutcome> {
    if (fn.code.kind !== 'source') throw new Error(`${fn.name} is not a source function`);
    const handler = await this.load(fn.code.handler);
    routeThroughGuard(dynamodb());
    try {
      const invocation = { [InvokeStoreBase.PROTECTED_KEYS.REQUEST_ID]: requestId };
      const result = await invocations.run(invocation, () => runAsFunction(fn.name, this.guardUrl, () => handler(event, lambdaContext(fn.name, requestId))));
      return { payload: JSON.stringify(result ?? null) };
    } catch (error) {
      return { error: { errorType: (error as Error)?.name ?? 'Error', errorMessage: String((error as Error)?.message ?? error) } };
    }
  }

  async close(): Promise<void> {}
}
