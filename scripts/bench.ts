import './bench/environment.ts';
import { join } from 'node:path';
import { positiveSetting } from '#lib/config.ts';
import { PROJECT_ROOT } from '../infra/api-function.ts';
import { measureBundles } from './bench/bundles.ts';
import { measureComments } from './bench/comments.ts';
import { measureLoad } from './bench/load.ts';
import { measureOperations } from './bench/operations.ts';
import { measurePaging } from './bench/paging.ts';
import { machine, renderComments, renderOperations, renderPaging, renderReport, renderSearch, writeReport } from './bench/report.ts';
import { measureSearch } from './bench/search.ts';
import { measureStreamLag } from './bench/stream-lag.ts';
import { startBenchStack } from './bench/stack.ts';

// `npm run bench`: measures calls, capacity, bundles, latency, paging and search; prints the
// report and writes it into docs/performance.md. Never part of `npm test`.

const USAGE = `Usage: npm run bench [-- --only <part>]

  (no option)     every part; prints the report and writes it into docs/performance.md
  --only operations  part 1 alone (calls, round trips and capacity per operation)
  --only comments part 1b alone (comments: threads pages at 10 and 10,000 comments, creates)
  --only paging   part 4 alone (paging through 10,000 posts)
  --only search   part 5 alone (search at 1,000, 10,000 and 100,000 posts)

A part run alone prints its section and leaves docs/performance.md as it is.
Settings (environment): BENCH_CONNECTIONS, BENCH_SECONDS, BENCH_ROUNDS, BENCH_REPEATS, BENCH_IMPORT_RUNS, BENCH_STREAM_RUNS.`;

const PARTS = ['operations', 'comments', 'paging', 'search'] as const;
type Part = (typeof PARTS)[number];

/** The part named by `--only`, or undefined for all of them; exits with the usage on anything else. */
function onlyPart(args: string[]): Part | undefined {
  if (args.length === 0) return undefined;
  const [option, part, ...rest] = args;
  if (option === '--only' && rest.length === 0 && (PARTS as readonly string[]).includes(part ?? '')) return part as Part;
  const help = option === '--help' || option === '-h';
  (help ? console.log : console.error)(USAGE);
  process.exit(help ? 0 : 2);
}

const step = (name: string) => console.error(`bench: ${name}...`);

/** One part alone: its section of the report, printed. */
async function runPart(part: Part): Promise<void> {
  const startedAt = new Date();
  const repeats = positiveSetting('BENCH_REPEATS', 7);
  const stack = await startBenchStack();
  let section: string[];
  try {
    if (part === 'operations') {
      step('calls and capacity per operation');
      section = renderOperations(await measureOperations(stack));
    } else if (part === 'comments') {
      step('comments: threads pages at 10 and 10,000 comments, creates');
      section = renderComments(await measureComments(stack));
    } else if (part === 'paging') {
      step('paging at 10,000 posts');
      section = renderPaging(await measurePaging(stack, repeats), repeats);
    } else {
      step('search at 1,000, 10,000 and 100,000 posts');
      section = renderSearch(await measureSearch(stack, repeats, undefined, (message) => console.error(`bench: ${message}`)), repeats);
    }
  } finally {
    await stack.stop();
  }
  const seconds = (Date.now() - startedAt.getTime()) / 1000;
  console.log(
    [`Run of ${startedAt.toISOString().slice(0, 16).replace('T', ' ')} UTC (${Math.round(seconds)} s) on ${machine()}: --only ${part}.`, '', ...section].join(
      '\n',
    ),
  );
  console.error('bench: one part alone; docs/performance.md left as it is');
}

async function main(): Promise<void> {
  const part = onlyPart(process.argv.slice(2));
  if (part) return runPart(part);
  const startedAt = new Date();
  const loadSettings = {
    connections: positiveSetting('BENCH_CONNECTIONS', 8),
    seconds: positiveSetting('BENCH_SECONDS', 4),
    rounds: positiveSetting('BENCH_ROUNDS', 5),
  };
  const repeats = positiveSetting('BENCH_REPEATS', 7);
  const importRuns = positiveSetting('BENCH_IMPORT_RUNS', 21);
  const stack = await startBenchStack();
  let results;
  try {
    step('calls and capacity per operation');
    const operations = await measureOperations(stack);
    step('comments: threads pages at 10 and 10,000 comments, creates');
    const comments = await measureComments(stack);
    step('stream consumer lag');
    const streamLag = await measureStreamLag({ server: stack.server, runs: positiveSetting('BENCH_STREAM_RUNS', 11) });
    step('paging at 10,000 posts');
    const paging = await measurePaging(stack, repeats);
    step('search at 1,000, 10,000 and 100,000 posts');
    const search = await measureSearch(stack, repeats, undefined, (message) => console.error(`bench: ${message}`));
    step('latency under load');
    const load = await measureLoad(stack, loadSettings);
    step('bundles and cold imports');
    const bundles = await measureBundles(importRuns);
    results = {
      operations,
      comments,
      streamLag,
      paging,
      search,
      load,
      loadSettings,
      bundles,
      importRuns,
      repeats,
      startedAt,
      seconds: (Date.now() - startedAt.getTime()) / 1000,
    };
  } finally {
    await stack.stop();
  }
  const report = renderReport(results);
  console.log(report);
  const file = join(PROJECT_ROOT, 'docs', 'performance.md');
  writeReport(file, report);
  console.error(`bench: written into ${file}`);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
