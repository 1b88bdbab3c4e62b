import autocannon from 'autocannon';
import { API_PREFIX } from '#lib/routes.ts';
import { pickEntry } from './mix.ts';
import { planRequest, type PlannedRequest } from './workload.ts';
import type { World } from './world.ts';

// Drives the mix with autocannon: each connection sends one request at a time, each drawn from
// the mix (mix.ts) and built over the world (workload.ts). Every answer becomes a sample: its
// kind, status, latency and the API Gateway request id, which the DynamoDB usage of the request
// is found by (usage.ts).

export interface Sample {
  kind: string;
  status: number;
  /** From the request written to the answer read, as autocannon times it. */
  ms: number;
  requestId?: string;
}

export interface DriveResult {
  samples: Sample[];
  seconds: number;
  /** Connection errors and timeouts (no answer at all). */
  errors: number;
  timeouts: number;
}

export interface DriveOptions {
  /** The API's base URL, with its /api/v1 prefix. */
  apiUrl: string;
  world: World;
  connections: number;
  seconds: number;
  random: () => number;
}

interface Context {
  kind?: string;
  plan?: PlannedRequest;
}

function headersOf(plan: PlannedRequest): { headers: Record<string, string>; body?: string } {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (plan.token) headers.Authorization = `Token ${plan.token}`;
  if (plan.form) return { headers: { ...headers, 'Content-Type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(plan.form).toString() };
  if (plan.json !== undefined) return { headers: { ...headers, 'Content-Type': 'application/json' }, body: JSON.stringify(plan.json) };
  return { headers };
}

export function drive(options: DriveOptions): Promise<DriveResult> {
  const { world, random } = options;
  const origin = new URL(options.apiUrl).origin;
  const prefix = new URL(options.apiUrl).pathname.replace(/\/$/, '') || API_PREFIX;
  const samples: Sample[] = [];
  // autocannon calls a request's onResponse and then, synchronously, emits its 'response' event
  // with the latency: the first leaves the sample here for the second to complete.
  let answered: Sample | undefined;
  return new Promise((done, fail) => {
    const instance = autocannon(
      {
        url: origin,
        connections: options.connections,
        duration: options.seconds,
        requests: [
          {
            setupRequest: (request, context: Context) => {
              const entry = pickEntry(random());
              const plan = planRequest(entry, world, random);
              context.kind = entry.kind;
              context.plan = plan;
              const { headers, body } = headersOf(plan);
              return { ...request, method: plan.method, path: `${prefix}${plan.path}`, headers, body: body ?? '' };
            },
            onResponse: (status, body, context: Context, headers) => {
              const requestId = Object.entries(headers ?? {}).find(([name]) => name.toLowerCase() === 'apigw-requestid')?.[1];
              answered = { kind: context.kind ?? 'unknown', status, ms: Number.NaN, ...(typeof requestId === 'string' ? { requestId } : {}) };
              context.plan?.onAnswer?.(status, body);
            },
          },
        ],
      },
      (error: unknown, result: autocannon.Result) => {
        if (error) fail(error instanceof Error ? error : new Error(String(error)));
        else done({ samples, seconds: options.seconds, errors: result.errors, timeouts: result.timeouts });
      },
    );
    instance.on('response', (_client, _status, _bytes, ms) => {
      if (!answered) return;
      samples.push({ ...answered, ms });
      answered = undefined;
    });
  });
}
