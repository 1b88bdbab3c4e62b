import { AsyncLocalStorage } from 'node:async_hooks';
import dc from 'node:diagnostics_channel';
import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

// Test-only fault injection for DynamoDB: an SDK middleware on the real client (the one the
// in-process API uses) that makes chosen attempts of chosen calls fail the way DynamoDB and the
// network fail. It sits at the end of the SDK's stack, inside the retry loop and below the
// deserializer, so every fault goes through the same code as a real one:
//
// - service errors are answered as DynamoDB answers them (HTTP status, x-amz-json body with
//   __type), and the SDK's own deserializer turns them into its typed exceptions; a cancelled
//   transaction carries CancellationReasons (TransactionConflict, or ThrottlingError);
// - a timeout sends the attempt to a local TCP "black hole" that accepts and never answers, so
//   the SDK's request timeout (DYNAMODB_REQUEST_TIMEOUT_MS) fires for real;
// - a lost response lets the call reach DynamoDB Local and be applied, then drops the answer
//   (a timeout after the fact): the retry must not apply it twice;
// - unprocessed keys/items answer a batch call as throttled DynamoDB does: nothing processed.
//
// A request to the local server may carry an `X-Fault-Plan` header: its value is handed to the
// rule with every DynamoDB call made on behalf of that request (an AsyncLocalStorage entered when
// the HTTP server starts the request), so concurrent requests can each get their own faults.

export const TRANSIENT_FAULTS = [
  'ProvisionedThroughputExceededException',
  'ThrottlingException',
  'TransactionConflict',
  'TransactionThrottled',
  'InternalServerError',
  'Timeout',
  'LostResponse',
  'Unprocessed',
] as const;
/** Transient faults, plus one error no retry can help (a bug-shaped ValidationException). */
export type FaultKind = (typeof TRANSIENT_FAULTS)[number] | 'ValidationException';

export interface FaultCall {
  /** DynamoDB operation, e.g. 'TransactWriteItems', 'GetItem', 'BatchGetItem'. */
  operation: string;
  /** The request as sent (DynamoDB JSON). */
  input: Record<string, any>;
  /** The SDK's id of the logical call: the same for all attempts of one call. */
  invocationId: string;
  /** 1 for the first attempt of the call, 2 for the first retry, ... */
  attempt: number;
  /** The X-Fault-Plan header of the HTTP request the call is made for, if any. */
  plan?: string;
}

/** Decides the fault of one attempt, or none. */
export type FaultRule = (call: FaultCall) => FaultKind | undefined;

const WRITES = new Set(['PutItem', 'UpdateItem', 'DeleteItem']);

/** Whether a fault of this kind can happen to this operation (others are not injected). */
export function applies(kind: FaultKind, operation: string): boolean {
  // The service never scans: a Scan is a test reading the table to check it.
  if (operation === 'Scan') return false;
  switch (kind) {
    case 'TransactionConflict':
      return operation === 'TransactWriteItems' || WRITES.has(operation);
    case 'TransactionThrottled':
      return operation === 'TransactWriteItems';
    case 'Unprocessed':
      return operation === 'BatchGetItem' || operation === 'BatchWriteItem';
    case 'LostResponse':
      // Only where a resend is idempotent: transactions (ClientRequestToken) and reads.
      return operation === 'TransactWriteItems' || ['GetItem', 'BatchGetItem', 'Query'].includes(operation);
    default:
      return true;
  }
}

export interface PlanStats {
  attempts: number;
  injected: number;
  /** Write calls (PutItem, UpdateItem, DeleteItem, TransactWriteItems, BatchWriteItem) DynamoDB applied. */
  appliedWrites: number;
}

export interface FaultStats {
  /** Attempts seen (faulty or not). */
  attempts: number;
  injected: Record<string, number>;
  byOperation: Record<string, Record<string, number>>;
  /** By X-Fault-Plan of the request the calls were made for. */
  byPlan: Record<string, PlanStats>;
}

const WRITE_CALLS = new Set(['PutItem', 'UpdateItem', 'DeleteItem', 'TransactWriteItems', 'BatchWriteItem']);
/**
 * The UpdateItem of a slug ticket (lib/slugs/tickets.ts), which a create sends before its
 * transaction: not the request's data (it only spreads concurrent creates over candidates, and
 * expires within two minutes), so a create that then fails may leave it, as a refused login
 * leaves its attempt counters.
 */
const SLUG_TICKET = /^\{[^]*"Key":\{"PK":\{"S":"SLUGTICKETS#/;

export interface FaultInjector {
  stats: FaultStats;
  /** Faults from now on are decided by `rule` (undefined: none). */
  setRule(rule: FaultRule | undefined): void;
  resetStats(): void;
  remove(): Promise<void>;
}

/** A small seeded PRNG (mulberry32): the same seed gives the same faults. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function dynamoResponse(status: number, body: unknown, n: number) {
  return {
    response: {
      statusCode: status,
      headers: { 'content-type': 'application/x-amz-json-1.0', 'x-amzn-requestid': `FAULT${n}` },
      body: new TextEncoder().encode(JSON.stringify(body)),
    },
    output: undefined,
  };
}

const PREFIX = 'com.amazonaws.dynamodb.v20120810#';

function faultResponse(kind: FaultKind, call: FaultCall, n: number) {
  switch (kind) {
    case 'ProvisionedThroughputExceededException':
      return dynamoResponse(
        400,
        {
          __type: `${PREFIX}${kind}`,
          message:
            'The level of configured provisioned throughput for the table was exceeded. Consider increasing your provisioning level with the UpdateTable API.',
        },
        n,
      );
    case 'ThrottlingException':
      return dynamoResponse(
        400,
        { __type: 'com.amazon.coral.availability#ThrottlingException', message: 'Rate of requests exceeds the allowed throughput.' },
        n,
      );
    case 'InternalServerError':
      return dynamoResponse(500, { __type: `${PREFIX}InternalServerError`, message: 'Internal server error' }, n);
    case 'ValidationException':
      return dynamoResponse(400, { __type: 'com.amazon.coral.validate#ValidationException', message: 'Injected validation failure' }, n);
    case 'TransactionConflict': {
      if (call.operation !== 'TransactWriteItems') {
        return dynamoResponse(400, { __type: `${PREFIX}TransactionConflictException`, message: 'Transaction is ongoing for the item' }, n);
      }
      const items = (call.input.TransactItems as unknown[] | undefined)?.length ?? 1;
      const conflicted = n % items;
      const reasons = Array.from({ length: items }, (_, i) =>
        i === conflicted ? { Code: 'TransactionConflict', Message: 'Transaction is ongoing for the item' } : { Code: 'None' },
      );
      return dynamoResponse(
        400,
        {
          __type: `${PREFIX}TransactionCanceledException`,
          Message: `Transaction cancelled, please refer cancellation reasons for specific reasons [${reasons.map((r) => r.Code).join(', ')}]`,
          CancellationReasons: reasons,
        },
        n,
      );
    }
    case 'TransactionThrottled': {
      // A transaction cancelled because one of its items (or an index) was throttled.
      const items = (call.input.TransactItems as unknown[] | undefined)?.length ?? 1;
      const throttled = n % items;
      const reasons = Array.from({ length: items }, (_, i) =>
        i === throttled
          ? {
              Code: 'ThrottlingError',
              Message:
                'Throughput exceeds the current capacity of your table or index. DynamoDB is automatically scaling your table or index so please try again shortly.',
            }
          : { Code: 'None' },
      );
      return dynamoResponse(
        400,
        {
          __type: `${PREFIX}TransactionCanceledException`,
          Message: `Transaction cancelled, please refer cancellation reasons for specific reasons [${reasons.map((r) => r.Code).join(', ')}]`,
          CancellationReasons: reasons,
        },
        n,
      );
    }
    case 'Unprocessed':
      return call.operation === 'BatchGetItem'
        ? dynamoResponse(200, { Responses: {}, UnprocessedKeys: call.input.RequestItems }, n)
        : dynamoResponse(200, { UnprocessedItems: call.input.RequestItems }, n);
    default:
      throw new Error(`no response for ${kind}`);
  }
}

/** A TCP server that accepts connections and never answers. */
async function blackHole(): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.on('close', () => sockets.delete(socket));
    socket.resume();
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((done) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => done());
      }),
  };
}

const NAME = 'testFaultInjection';
const START_CHANNEL = 'http.server.request.start';
const plans = new AsyncLocalStorage<string | undefined>();
function onRequestStart(message: unknown): void {
  const header = (message as { request: { headers: Record<string, string | undefined> } }).request.headers['x-fault-plan'];
  plans.enterWith(header);
}

/**
 * Installs the fault middleware on a client's middleware stack (`db().middlewareStack`: the
 * document client shares its stack with the base client).
 */
export async function installFaults(client: { middlewareStack: any }): Promise<FaultInjector> {
  const hole = await blackHole();
  dc.subscribe(START_CHANNEL, onRequestStart);
  let rule: FaultRule | undefined;
  let counter = 0;
  const stats: FaultStats = { attempts: 0, injected: {}, byOperation: {}, byPlan: {} };

  const middleware = (next: any) => async (args: any) => {
    const request = args.request;
    const target = String(request?.headers?.['x-amz-target'] ?? '');
    const operation = target.split('.')[1] ?? 'unknown';
    const plan = plans.getStore();
    const planStats = plan ? (stats.byPlan[plan] ??= { attempts: 0, injected: 0, appliedWrites: 0 }) : undefined;
    stats.attempts += 1;
    if (planStats) planStats.attempts += 1;
    const body = request.body;
    const text = typeof body === 'string' ? body : body instanceof Uint8Array ? new TextDecoder().decode(body) : '';
    /** Sends the attempt to DynamoDB Local, counting an applied write (but a slug ticket's: see SLUG_TICKET). */
    const send = async (sent: any) => {
      const result = await next(sent);
      if (planStats && WRITE_CALLS.has(operation) && !SLUG_TICKET.test(text)) planStats.appliedWrites += 1;
      return result;
    };
    if (!rule) return send(args);
    let input: Record<string, any> = {};
    try {
      input = text ? JSON.parse(text) : {};
    } catch {
      input = {};
    }
    const attempt = Number(/attempt=(\d+)/.exec(String(request.headers['amz-sdk-request'] ?? ''))?.[1] ?? 1);
    const call: FaultCall = { operation, input, invocationId: String(request.headers['amz-sdk-invocation-id'] ?? ''), attempt, ...(plan ? { plan } : {}) };
    const kind = rule(call);
    if (!kind || !applies(kind, operation)) return send(args);
    const n = ++counter;
    stats.injected[kind] = (stats.injected[kind] ?? 0) + 1;
    const perOperation = (stats.byOperation[operation] ??= {});
    perOperation[kind] = (perOperation[kind] ?? 0) + 1;
    if (planStats) planStats.injected += 1;
    if (kind === 'Timeout') {
      const detour = Object.assign(Object.create(Object.getPrototypeOf(request)), request, { hostname: '127.0.0.1', port: hole.port });
      return next({ ...args, request: detour });
    }
    if (kind === 'LostResponse') {
      await send(args);
      throw Object.assign(new Error('Injected: the response was lost after DynamoDB applied the request.'), { name: 'TimeoutError', code: 'ETIMEDOUT' });
    }
    return faultResponse(kind, call, n);
  };
  client.middlewareStack.add(middleware, { step: 'deserialize', priority: 'low', name: NAME, override: true });

  return {
    stats,
    setRule(next) {
      rule = next;
    },
    resetStats() {
      stats.attempts = 0;
      stats.injected = {};
      stats.byOperation = {};
      stats.byPlan = {};
    },
    async remove() {
      rule = undefined;
      client.middlewareStack.remove(NAME);
      dc.unsubscribe(START_CHANNEL, onRequestStart);
      await hole.close();
    },
  };
}
