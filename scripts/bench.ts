import './bench/environment.ts';
import { join } from 'node:path';
import { positiveSetting } from '#lib/config.ts';
import { PROJECT_ROOT } from '../infra/api-function.ts';
import { measureBundles } from './bench/bundles.ts';
import { measureLoad } from './bench/load.ts';
import { measureOperations } from './bench/operations.ts';
import { measurePaging, measureSearch } from './bench/paging.ts';
import { renderReport, writeReport } from './bench/report.ts';
import { measureStreamLag } from './bench/stream-lag.ts';
import { startBenchStack } from './bench/stack.ts';

// `npm run bench`: measures calls, capacity, bundles, latency, paging and search; prints the
// report and writes it into docs/performance.md. Never part of `npm test`.


async function main(): Promise<void> {
  const startedAt = new Date();
  const loadSettings = { connections: positiveSetting('BENCH_CONNECTIONS', 8), seconds: positiveSetting('BENCH_SECONDS', 4), rounds: positiveSetting('BENCH_ROUNDS', 5) };
  const repeats = positiveSetting('BENCH_REPEATS', 7);
  const importRuns = positiveSetting('BENCH_IMPORT_RUNS', 21);
  const stack = await startBenchStack();
  const step = (name: string) => console.error(`bench: ${name}...`);
  let results;
  try {
    step('calls and capacity per operation');
    const operations = await measureOperations(stack);
    step('stream consumer lag');
    const streamLag = await measureStreamLag({ server: stack.server, runs: positiveSetting('BENCH_STREAM_RUNS', 11) });
    step('paging at 10,000 posts');
    const paging = await measurePaging(stack, repeats);
    step('search at 1,000 and 10,000 posts');
    const search = await measureSearch(stack, repeats);
    step('latency under load');
    const load = await measureLoad(stack, loadSettings);
    step('bundles and cold imports');
    const bundles = await measureBundles(importRuns);
    results = { operations, streamLag, paging, search, load, loadSettings, bundles, importRuns, repeats, startedAt, seconds: (Date.now() - startedAt.getTime()) / 1000 };
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
