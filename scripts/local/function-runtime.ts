import type { LocalFunction } from './deployment.ts';

// How the local stack invokes a function, and what comes back: Lambda's answer is the handler's
// result serialized as JSON (its size is what Lambda limits), or the function's error. The gateway
// invokes with API Gateway's events, the stream poller (stream-poller.ts) with the stream's. Two
// runtimes: the handlers from source in this process (source-runtime.ts), the bundles of cdk.out
// in processes of their own (bundle-runtime.ts).

export type InvokeOutcome = { payload: string } | { error: { errorType: string; errorMessage: string } };

export interface FunctionRuntime {
  /** One invocation with `event` (as JSON would carry it); `requestId` is the Lambda request id. */
  invoke(fn: LocalFunction, event: object, requestId: string): Promise<InvokeOutcome>;
  close(): Promise<void>;
}
