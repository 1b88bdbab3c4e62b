import { AsyncLocalStorage } from 'node:async_hooks';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { signedAs } from './iam-policy.ts';

// When the handlers run from source inside the local server's process, they share one DynamoDB
// client. Deployed, each function signs with its own role's credentials, and DynamoDB checks that
// role's policy. Here each invocation runs as its function: a middleware on the shared client
// sends every request made on its behalf to the IAM guard, signed with the function's access key
// (the guard reads nothing else of the signature). Requests made outside an invocation (the test
// harness, the admin CLI) go to DynamoDB Local as before.

interface Invocation {
  /** The access key the function signs with: its name in the stack. */
  accessKeyId: string;
  guard: URL;
}

const invocations = new AsyncLocalStorage<Invocation>();
const routed = new WeakSet<object>();

interface SignedRequest {
  hostname: string;
  port?: number;
  protocol: string;
  headers: Record<string, string>;
}

/** Runs `work` as the function whose access key this is; its DynamoDB calls go to the guard. */
export function runAsFunction<T>(accessKeyId: string, guardUrl: string, work: () => Promise<T>): Promise<T> {
  return invocations.run({ accessKeyId, guard: new URL(guardUrl) }, work);
}

/** Adds the middleware to a client once (a client made anew after resetDb() gets it on first use). */
export function routeThroughGuard(client: DynamoDBClient): void {
  if (routed.has(client)) return;
  routed.add(client);
  client.middlewareStack.add(
    (next) => async (args) => {
      const invocation = invocations.getStore();
      const request = args.request as SignedRequest | undefined;
      if (invocation && request?.headers) {
        request.hostname = invocation.guard.hostname;
        request.port = Number(invocation.guard.port);
        request.protocol = invocation.guard.protocol;
        request.headers.authorization = signedAs(request.headers.authorization, invocation.accessKeyId);
      }
      return next(args);
    },
    // The deserialize step runs after signing (finalizeRequest) on every attempt, retries included.
    { step: 'deserialize', priority: 'high', name: 'localFunctionIdentity', override: true },
  );
}
