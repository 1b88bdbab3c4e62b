import { onRequestLogged, type RequestRecord } from '#lib/http/access-log.ts';

// The DynamoDB cost of each request of a run against the stack in this process: the request
// record every handler writes (lib/http/access-log.ts: calls and the capacity DynamoDB reported,
// counted by lib/db/usage.ts), kept by API Gateway request id, which the answer's
// `apigw-requestid` header carries to the load tool.

export type RequestUsage = Pick<RequestRecord, 'route' | 'status' | 'dynamodbCalls' | 'consumedCapacity'>;

export interface UsageLog {
  /** The usage of the request with this id, if it ran in this process. */
  take(requestId: string | undefined): RequestUsage | undefined;
  detach(): void;
}

export function recordRequestUsage(): UsageLog {
  const records = new Map<string, RequestUsage>();
  onRequestLogged(({ requestId, route, status, dynamodbCalls, consumedCapacity }) =>
    records.set(requestId, { route, status, dynamodbCalls, consumedCapacity }),
  );
  return {
    take(requestId) {
      if (requestId === undefined) return undefined;
      const usage = records.get(requestId);
      records.delete(requestId);
      return usage;
    },
    detach: () => onRequestLogged(undefined),
  };
}
