import { fixed, quantile } from '../bench/stats.ts';
import type { Usage } from '../bench/meter.ts';
import type { DriveResult, Sample } from './drive.ts';
import { MIX } from './mix.ts';
import type { RequestUsage } from '../local/request-usage.ts';

// The figures of a run, and their Markdown: throughput, latency, status codes, and DynamoDB calls
// and capacity per request, overall and per operation kind of the mix.

export interface Measured extends Sample {
  usage?: RequestUsage;
}

export interface Figures {
  requests: number;
  /** DynamoDB usage was known (the stack ran in this process). */
  metered: number;
  p50: number;
  p99: number;
  statuses: Map<number, number>;
  calls: number;
  rcu: number;
  wcu: number;
}

export interface LoadReport {
  seconds: number;
  connections: number;
  errors: number;
  timeouts: number;
  overall: Figures;
  kinds: { kind: string; share: number; figures: Figures }[];
  /** The table's stream consumer over the run (search index, deletions' fan-out), if metered. */
  stream?: Usage;
}

const mean = (values: number[]) => (values.length === 0 ? Number.NaN : values.reduce((sum, v) => sum + v, 0) / values.length);

export function figuresOf(samples: Measured[]): Figures {
  const statuses = new Map<number, number>();
  for (const sample of samples) statuses.set(sample.status, (statuses.get(sample.status) ?? 0) + 1);
  const metered = samples.flatMap((sample) => (sample.usage ? [sample.usage] : []));
  const latencies = samples.map((sample) => sample.ms);
  return {
    requests: samples.length,
    metered: metered.length,
    p50: quantile(latencies, 0.5),
    p99: quantile(latencies, 0.99),
    statuses: new Map([...statuses].sort(([a], [b]) => a - b)),
    calls: mean(metered.map((usage) => usage.dynamodbCalls)),
    rcu: mean(metered.map((usage) => usage.consumedCapacity.read)),
    wcu: mean(metered.map((usage) => usage.consumedCapacity.write)),
  };
}

export function buildReport(run: DriveResult, samples: Measured[], connections: number, stream?: Usage): LoadReport {
  return {
    seconds: run.seconds,
    connections,
    errors: run.errors,
    timeouts: run.timeouts,
    overall: figuresOf(samples),
    kinds: MIX.map((entry) => ({ kind: entry.kind, share: entry.share, figures: figuresOf(samples.filter((sample) => sample.kind === entry.kind)) })),
    ...(stream ? { stream } : {}),
  };
}

const statusList = (statuses: Map<number, number>) => [...statuses].map(([status, n]) => `${status}×${n}`).join(', ');
const serverErrors = (statuses: Map<number, number>) => [...statuses].filter(([status]) => status >= 500).reduce((sum, [, n]) => sum + n, 0);

export function renderReport(report: LoadReport): string[] {
  const { overall } = report;
  const lines: string[] = [];
  const errors5xx = serverErrors(overall.statuses);
  lines.push(
    `${overall.requests.toLocaleString('en-US')} requests in ${report.seconds} s over ${report.connections} connections: ` +
      `${fixed(overall.requests / report.seconds, 1)} requests/s, p50 ${fixed(overall.p50, 1)} ms, p99 ${fixed(overall.p99, 1)} ms.`,
    `Status codes: ${statusList(overall.statuses)}. ${errors5xx > 0 ? `**${errors5xx} answers were 5xx.**` : 'No 5xx.'} ` +
      `Connection errors ${report.errors}, timeouts ${report.timeouts}.`,
  );
  if (overall.metered > 0) {
    lines.push(
      `DynamoDB per request (mean over the ${overall.metered.toLocaleString('en-US')} requests metered): ${fixed(overall.calls)} calls, ` +
        `${fixed(overall.rcu)} RCU, ${fixed(overall.wcu)} WCU (as DynamoDB Local reports it: reads as AWS counts them; a transaction's writes follow one item's size, not the items written, docs/scale.md).`,
    );
  } else {
    lines.push('DynamoDB per request: not metered (the API runs in another process: `--url`).');
  }
  lines.push(
    '',
    '| operation kind | mix share | requests | share seen | p50 ms | p99 ms | statuses | DynamoDB calls | RCU | WCU |',
    '|---|---|---|---|---|---|---|---|---|---|',
  );
  for (const { kind, share, figures: f } of report.kinds) {
    const metered = f.metered > 0;
    lines.push(
      `| ${kind} | ${share}% | ${f.requests} | ${fixed((100 * f.requests) / Math.max(1, overall.requests), 1)}% | ${fixed(f.p50, 1)} | ${fixed(f.p99, 1)} | ${statusList(f.statuses)} | ` +
        `${metered ? fixed(f.calls) : '–'} | ${metered ? fixed(f.rcu) : '–'} | ${metered ? fixed(f.wcu) : '–'} |`,
    );
  }
  if (report.stream) {
    const s = report.stream;
    const writes = ['post create', 'post update'].map((kind) => report.kinds.find((k) => k.kind === kind)?.figures.requests ?? 0).reduce((a, b) => a + b, 0);
    lines.push(
      '',
      `Stream consumer over the run (the search index and deletions' fan-out; no request waits for it): ${s.totalCalls} calls, ${fixed(s.rcu, 1)} RCU, ${fixed(s.wcu, 1)} WCU` +
        (writes > 0 ? `: ${fixed(s.wcu / writes, 1)} WCU and ${fixed(s.totalCalls / writes, 1)} calls per post create or update (${writes}).` : '.'),
    );
  }
  return lines;
}
