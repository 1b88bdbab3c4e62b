import type { Context } from 'aws-lambda';
import { dynamodb } from '#lib/db/client.ts';
import type { LocalFunction } from './deployment.ts';
import { routeThroughGuard, runAsFunction } from './function-identity.ts';
import type { FunctionRuntime, InvokeOutcome } from './function-runtime.ts';
import { lambdaContext } from './gateway-event.ts';

type Handler = (event: object, context: Context) => Promise<unknown>;

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
      const result = await runAsFunction(fn.name, this.guardUrl, () => handler(event, lambdaContext(fn.name, requestId)));
      return { payload: JSON.stringify(result ?? null) };
    } catch (error) {
      return { error: { errorType: (error as Error)?.name ?? 'Error', errorMessage: String((error as Error)?.message ?? error) } };
    }
  }

  async close(): Promise<void> {}
}
