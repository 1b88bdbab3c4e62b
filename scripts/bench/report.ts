import { readFileSync, writeFileSync } from 'node:fs';
import { cpus, platform, release, totalmem } from 'node:os';
import type { BundleFigures } from './bundles.ts';
import { TARGETS, type LoadFigures, type LoadResults } from './load.ts';
import type { OperationUsage } from './operations.ts';
import { SEED_BATCHES_IN_FLIGHT, type RequestFigures } from './paging.ts';
import { COMMON_EVERY, SEARCH_ROWS, SEARCH_WORDS, type SearchResults } from './search.ts';
import type { StreamLagResult } from './stream-lag.ts';
import { fixed, formatSpread } from './stats.ts';

// Renders the figures as Markdown and puts them between the markers of docs/performance.md.

export const START_MARKER = '<!-- bench:start -->';
export const END_MARKER = '<!-- bench:end -->';

export interface BenchResults {
  operations: OperationUsage[];
  /** Part 1b (scripts/bench/comments.ts). */
  comments: OperationUsage[];
  streamLag: StreamLagResult;
  bundles: { floor: BundleFigures; functions: BundleFigures[] };
  importRuns: number;
  load: LoadResults;
  loadSettings: { connections: number; seconds: number; rounds: number };
  paging: RequestFigures[];
  search: SearchResults;
  repeats: number;
  startedAt: Date;
  seconds: number;
}

const calls = (usage: { calls: Record<string, number> }) =>
  Object.entries(usage.calls)
    .map(([operation, n]) => (n > 1 ? `${operation} ×${n}` : operation))
    .join(', ');

export function machine(): string {
  const cpu = cpus();
  return `${cpu[0]?.model ?? 'unknown CPU'}, ${cpu.length} cores, ${Math.round(totalmem() / 2 ** 30)} GiB, ${platform()} ${release()}, Node.js ${process.version}, DynamoDB Local 3.3.0`;
}

export function renderReport(r: BenchResults): string {
  const lines: string[] = [];
  const push = (...more: string[]) => lines.push(...more);
  push(`Run of ${r.startedAt.toISOString().slice(0, 16).replace('T', ' ')} UTC (${Math.round(r.seconds)} s) on ${machine()}.`, '');

  push(...renderOperations(r.operations));
  push(...renderComments(r.comments));

  const lag = r.streamLag;
  push(
    `Asynchronous fan-out: from a post's deletion to its ${lag.visits} visits removed by the stream consumer, ${fixed(lag.medianMs, 0)} ms median ` +
      `(min ${fixed(lag.minMs, 0)}, max ${fixed(lag.maxMs, 0)}, ${lag.runs} runs; the local poller reads the stream every 250 ms, as Lambda polls a shard about four times a second).`,
    '',
    `Search index: from a post's text written to its 20 words indexed by the stream consumer, ${fixed(lag.index.medianMs, 0)} ms median ` +
      `(min ${fixed(lag.index.minMs, 0)}, max ${fixed(lag.index.maxMs, 0)}, ${lag.runs} runs).`,
    '',
  );

  const floor = r.bundles.floor;
  push(`### 2. Bundles: bytes and cold import time (${r.importRuns} fresh \`node\` processes each)`, '');
  push(
    `Floor handler (one GetItem with the same SDK, bundled the same way): ${floor.bytes.toLocaleString('en-US')} bytes, import ${formatSpread(floor.importMs)} ms (min / median / max).`,
    '',
  );
  push(
    'Each function with Powertools Logger and Metrics, as deployed: tracing off (the default, without the Tracer) and on (`-c tracing=true`: the bundle with the Tracer and the X-Ray SDK, imported with tracing switched on).',
    '',
  );
  push(
    '| function | bytes | × floor | import ms min / median / max | median × floor | tracing on: bytes | tracing on: import ms min / median / max | median × floor |',
    '|---|---|---|---|---|---|---|---|',
  );
  const ratio = (spread: { median: number } | undefined) => (spread ? spread.median / floor.importMs.median : Number.NaN);
  for (const f of r.bundles.functions) {
    const traced = f.traced ? [f.traced.bytes.toLocaleString('en-US'), formatSpread(f.traced.importMs), fixed(ratio(f.traced.importMs))] : ['–', '–', '–'];
    push(
      `| ${f.name} | ${f.bytes.toLocaleString('en-US')} | ${fixed(f.bytes / floor.bytes)} | ${formatSpread(f.importMs)} | ${fixed(ratio(f.importMs))} | ${traced.join(' | ')} |`,
    );
  }
  const worstBytes = Math.max(...r.bundles.functions.map((f) => f.bytes / floor.bytes));
  const worstImport = Math.max(...r.bundles.functions.map((f) => ratio(f.importMs)));
  const worstTraced = Math.max(...r.bundles.functions.map((f) => ratio(f.traced?.importMs)));
  push(
    '',
    `Largest import ratio: ${fixed(worstImport)}× the floor (goal ≤ 1.15×, tracing off); with tracing on ${fixed(worstTraced)}× (reported, no goal). ` +
      `Largest bytes ratio: ${fixed(worstBytes)}× (reported, no goal).`,
    '',
  );

  const s = r.loadSettings;
  push(`### 3. Latency and throughput under autocannon (${s.connections} connections, ${s.seconds} s, ${s.rounds} rounds)`, '');
  push(
    'Each cell is min / median / max over the rounds; each round runs every target in turn. The API runs in its own process as `npm start` runs it; autocannon and the bare loops run in the bench process. Latencies are per request, in fractions of a millisecond.',
    '',
  );
  push('| target | p50 ms | p99 ms | requests/s | CPU ms per request: bench / server / DynamoDB Local = total |', '|---|---|---|---|---|');
  const cpuTotal = (cpu: LoadFigures['cpu']) => cpu.bench + (Number.isNaN(cpu.server) ? 0 : cpu.server) + cpu.dynamodbLocal;
  for (const l of r.load.targets) {
    const cpu = `${fixed(l.cpu.bench, 3)} / ${Number.isNaN(l.cpu.server) ? '–' : fixed(l.cpu.server, 3)} / ${fixed(l.cpu.dynamodbLocal, 3)} = ${fixed(cpuTotal(l.cpu), 3)}`;
    push(`| ${l.name} | ${formatSpread(l.p50)} | ${formatSpread(l.p99)} | ${formatSpread(l.rps, 0)} | ${cpu} |`);
  }
  const target = (name: string) => r.load.targets.find((l) => l.name === name);
  const p50 = (name: string) => target(name)?.p50.median ?? Number.NaN;
  const cpuOf = (name: string) => {
    const found = target(name);
    return found ? cpuTotal(found.cpu) : Number.NaN;
  };
  const [get, batch, handler, floorHttp, detail] = [TARGETS.bareGet, TARGETS.bareBatch, TARGETS.handler, TARGETS.floorHttp, TARGETS.detail].map(p50) as [
    number,
    number,
    number,
    number,
    number,
  ];
  push('', `Detail p50 over HTTP / bare GetItem p50, per round (min / median / max): ${formatSpread(r.load.detailRatio)}× (goal ≤ 1.5×).`, '');
  push(`Detail handler invoked in-process (what runs in Lambda) p50 / bare GetItem p50, per round: ${formatSpread(r.load.handlerRatio)}×.`, '');
  push(
    `Where the detail's median p50 of ${fixed(detail)} ms goes, against the bare GetItem's ${fixed(get)} ms (medians of the rows above): ` +
      `reading token and tag in one BatchGetItem instead of one item (bare BatchGetItem − bare GetItem) ${fixed(batch - get)} ms; ` +
      `the handler's own work (in-process handler − bare BatchGetItem) ${fixed(handler - batch)} ms; ` +
      `the HTTP hop to another process and back (floor over HTTP − bare GetItem) ${fixed(floorHttp - get)} ms; ` +
      `the rest (the local server's API Gateway emulation, and the API process's share of the 2 cores) ${fixed(detail - handler - (floorHttp - get))} ms.`,
  );
  push(
    '',
    `CPU per request, all processes together (last column): the detail over HTTP ${fixed(cpuOf(TARGETS.detail), 3)} ms, ` +
      `the floor over HTTP ${fixed(cpuOf(TARGETS.floorHttp), 3)} ms, the bare GetItem ${fixed(cpuOf(TARGETS.bareGet), 3)} ms ` +
      `(${fixed(cpuOf(TARGETS.detail) / cpuOf(TARGETS.bareGet))}× the bare GetItem). When the connections keep the machine's cores busy, ` +
      'waiting for a core is part of every latency, and the p50 ratio follows this CPU ratio rather than the length of the code path.',
  );
  push('');

  push(...renderPaging(r.paging, r.repeats), '');
  push(...renderSearch(r.search, r.repeats));
  return lines.join('\n');
}

/** Section 4: paging. */
/** Section 1: the calls, round trips and capacity of each operation. */
export function renderOperations(operations: BenchResults['operations']): string[] {
  const lines = [
    '### 1. DynamoDB calls and consumed capacity per operation',
    '',
    'Round trips: the calls grouped by overlap in time (calls sent in parallel count once).',
    '',
  ];
  lines.push('| operation | status | calls | round trips | which | RCU | WCU | body bytes |', '|---|---|---|---|---|---|---|---|');
  for (const op of operations)
    lines.push(
      `| ${op.operation} | ${op.status} | ${op.totalCalls} | ${op.rounds} | ${calls(op)} | ${fixed(op.rcu, 1)} | ${fixed(op.wcu, 1)} | ${count(op.bytes)} |`,
    );
  const wcu = (operation: string) => operations.find((op) => op.operation === operation)?.wcu;
  const [small, huge] = ['1,000', '100,000'].map((size) => operations.find((op) => op.operation === `summary page, 20 posts of ${size} characters`));
  if (small && huge) {
    lines.push(
      '',
      `A page of 20 summaries: ${fixed(small.rcu, 1)} RCU and ${count(small.bytes)} bytes for posts of 1,000 characters, ${fixed(huge.rcu, 1)} RCU and ${count(huge.bytes)} bytes for posts of 100,000 (${fixed(huge.rcu / small.rcu, 2)}× and ${fixed(huge.bytes / small.bytes, 2)}×; the goal is at most 1.2×), in ${small.rounds} and ${huge.rounds} round trips.`,
    );
  }
  const bySize = (what: string, small: number, large: number, sentence: string) => {
    const [a, b] = [wcu(`${what}, ${small} KB post`), wcu(`${what}, ${large} KB post`)];
    if (a && b) lines.push('', `${sentence}: ${fixed(a, 1)} WCU on a ${small} KB post, ${fixed(b, 1)} WCU on a ${large} KB one (${fixed(b / a, 2)}×).`);
  };
  bySize('post detail, first visit', 1, 90, 'A first visit (a count never rewrites the text)');
  for (const what of ['vote up', 'vote switch', 'favorite', 'unfavorite']) bySize(what, 1, 300, `${what[0]!.toUpperCase()}${what.slice(1)}`);
  lines.push('');
  return lines;
}

export function renderComments(comments: BenchResults['comments']): string[] {
  const lines = [
    '### 1b. Comments (v1.3 §6)',
    '',
    "A page of threads reads the post's threads partition once (its threads with the copies of their first 3 replies, " +
      "at most 20 × 4 + 1 items): what it reads grows with the comments returned, not with the post's comments.",
    '',
    '| operation | status | calls | round trips | which | RCU | WCU | body bytes |',
    '|---|---|---|---|---|---|---|---|',
  ];
  for (const op of comments)
    lines.push(
      `| ${op.operation} | ${op.status} | ${op.totalCalls} | ${op.rounds} | ${calls(op)} | ${fixed(op.rcu, 1)} | ${fixed(op.wcu, 1)} | ${count(op.bytes)} |`,
    );
  const [ten, large] = ['10', '10,000'].map((size) => comments.find((op) => op.operation === `comments: threads page, post of ${size} comments`));
  if (ten && large) {
    lines.push(
      '',
      `A page of threads: ${fixed(ten.rcu, 1)} RCU on a post of 10 comments (${ten.rounds} round trips), ${fixed(large.rcu, 1)} RCU for its 20 threads ` +
        `and their first replies on a post of 10,000 (${large.rounds} round trips).`,
    );
  }
  lines.push('');
  return lines;
}

export function renderPaging(paging: RequestFigures[], repeats: number): string[] {
  const lines = [`### 4. Paging through 10,000 published posts (page_size 100; latency over ${repeats} runs)`, ''];
  lines.push('| request | items | calls | which | RCU | latency ms min / median / max |', '|---|---|---|---|---|---|');
  for (const p of paging) lines.push(`| ${p.name} | ${p.items} | ${p.totalCalls} | ${calls(p)} | ${fixed(p.rcu, 1)} | ${formatSpread(p.latencyMs)} |`);
  return lines;
}

const count = (n: number) => n.toLocaleString('en-US');

/** Section 5: search at each size, with the ratios of the largest size to the smallest. */
export function renderSearch(search: SearchResults, repeats: number): string[] {
  const lines = [`### 5. Search (\`q\` on /posts, page 1 with the default page_size 100; latency over ${repeats} runs)`, ''];
  const push = (...more: string[]) => lines.push(...more);
  push(
    `Each size is a fresh table seeded straight into DynamoDB Local with BatchWriteItem (${SEED_BATCHES_IN_FLIGHT} calls in flight, the stream off), ` +
      "through the project's own item builders: each post's text, stats and list entries, and its search postings, as the stream consumer writes them. " +
      `Seeding took ${search.seeds.map((s) => `${fixed(s.seconds, 1)} s for ${count(s.posts)} posts (${count(s.items)} items)`).join(', ')}. ` +
      'A post is titled `Bench post <i>` and described `Seeded`, followed by the searched words it carries. ' +
      `The words searched for (${Object.values(SEARCH_WORDS)
        .map((word) => `\`${word}\``)
        .join(', ')}) share their index partition (their first letter) with \`seeded\`, ` +
      "which every post carries, as a real site's words share theirs with frequent words.",
    '',
  );
  push('| posts | request | items | calls | round trips | which | RCU | latency ms min / median / max |', '|---|---|---|---|---|---|---|---|');
  for (const q of search.rows)
    push(`| ${count(q.posts)} | ${q.name} | ${q.items} | ${q.totalCalls} | ${q.rounds} | ${calls(q)} | ${fixed(q.rcu, 1)} | ${formatSpread(q.latencyMs)} |`);
  const sizes = [...new Set(search.rows.map((q) => q.posts))];
  const [smallest, largest] = [Math.min(...sizes), Math.max(...sizes)];
  const row = (name: string, posts: number) => search.rows.find((q) => q.name === name && q.posts === posts);
  const [small, large] = [row(SEARCH_ROWS.rare, smallest), row(SEARCH_ROWS.rare, largest)];
  if (small && large && smallest !== largest) {
    const rcu = large.rcu / small.rcu;
    const p50 = large.latencyMs.median / small.latencyMs.median;
    const met = rcu <= 1.5 && p50 <= 1.5;
    const missed = [rcu > 1.5 ? 'capacity' : '', p50 > 1.5 ? 'time' : ''].filter(Boolean).join(' and ');
    push(
      '',
      `From ${count(smallest)} to ${count(largest)} posts the search of a word that ${small.items} posts carry at every size reads ${fixed(rcu)}× the capacity ` +
        `(${fixed(small.rcu, 1)} → ${fixed(large.rcu, 1)} RCU) and takes ${fixed(p50)}× the time (p50 ${fixed(small.latencyMs.median)} → ${fixed(large.latencyMs.median)} ms): ` +
        (met ? 'goal ≤ 1.5× met.' : `goal ≤ 1.5× not met (${missed}).`),
    );
    const [commonSmall, commonLarge] = [row(SEARCH_ROWS.common, smallest), row(SEARCH_ROWS.common, largest)];
    if (commonSmall && commonLarge) {
      push(
        '',
        `A word that 1 post in ${COMMON_EVERY} carries (reported, no goal): its matches grow ${fixed(largest / smallest, 0)}× with the site, the capacity ${fixed(commonLarge.rcu / commonSmall.rcu, 1)}× ` +
          `(${fixed(commonSmall.rcu, 1)} → ${fixed(commonLarge.rcu, 1)} RCU) and the time ${fixed(commonLarge.latencyMs.median / commonSmall.latencyMs.median, 1)}× (p50).`,
      );
    }
  }
  return lines;
}

export function writeReport(file: string, report: string): void {
  const current = readFileSync(file, 'utf8');
  const start = current.indexOf(START_MARKER);
  const end = current.indexOf(END_MARKER);
  if (start < 0 || end < start) throw new Error(`${file} lacks the ${START_MARKER} / ${END_MARKER} markers`);
  writeFileSync(file, `${current.slice(0, start + START_MARKER.length)}\n${report}\n${current.slice(end)}`);
}
