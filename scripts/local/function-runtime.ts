import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import type { LocalFunction } from './deployment.ts';

// How the local gateway invokes a function, and what comes back: Lambda's answer is the handler's
// result serialized as JSON (its size is what Lambda limits), or the function's error. Two
// runtimes: the handlers from source in this process (source-runtime.ts), the bundles of cdk.out
// in processes of their own (bundle-runtime.ts).

export type InvokeOutcome = { payload: string } | { error: { errorType: string; errorMessage: string } };

export interface FunctionRuntime {
  invoke(fn: LocalFunction, event: APIGatewayProxyEventV2): Promise<InvokeOutcome>;
  close(): Promise<void>;
}
