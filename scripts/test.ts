import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ensureSite } from './web/site-build.ts';

// `npm test`: the suites of vitest.config.ts in two runs at once. The project `api-alone` (the
// suites that measure their own bursts and timings) runs at the normal priority, with a DynamoDB
// Local of its own; every other project runs at the lowest priority (`nice -n 19`), its emulator,
// browsers and bundles' processes with it. So the machine's second core works through the other
// suites while the alone suites run, and yields to them whenever they want it: the scheduler
// gives a niceness-0 task about 68 times the share of a niceness-19 one. A run that names files,
// projects or tests (`npm test -- test/api/posts.test.ts`) is one vitest run, as vitest runs it.

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const VITEST = fileURLToPath(new URL('../node_modules/vitest/vitest.mjs', import.meta.url));
const ALONE_PROJECT = 'api-alone';

/** Whether the arguments choose what runs: a file filter, a project, a test name. */
function chooses(args: string[]): boolean {
  return args.some((arg) => !arg.startsWith('-') || /^--project\b/.test(arg) || arg === '-t' || /^--testNamePattern\b/.test(arg));
}

/** The JSON report's file named by the arguments (`--outputFile.json=` or `--outputFile=`), if any. */
function jsonReport(args: string[]): string | undefined {
  for (const arg of args) {
    const match = /^--outputFile(?:\.json)?=(.+)$/.exec(arg);
    if (match) return match[1];
  }
  return undefined;
}

/** Whether `nice` runs here (coreutils); without it the alone suites run after the others, not beside them. */
function haveNice(): boolean {
  return spawnSync('nice', ['-n', '0', 'true'], { stdio: 'ignore' }).status === 0;
}

interface Part {
  code: number;
  output: string;
}

/** Runs vitest with `args`; its output to this process's or, with `capture`, collected. */
function vitest(args: string[], options: { nice: boolean; capture: boolean }): Promise<Part> {
  const [file, ...prefix] = options.nice ? ['nice', '-n', '19', process.execPath] : [process.execPath];
  return new Promise((done) => {
    const child = spawn(file!, [...prefix, VITEST, 'run', ...args], {
      cwd: ROOT,
      stdio: ['inherit', options.capture ? 'pipe' : 'inherit', options.capture ? 'pipe' : 'inherit'],
    });
    let output = '';
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.on('error', (error) => done({ code: 1, output: `${output}\n${error.message}\n` }));
    child.on('close', (code, signal) => done({ code: code ?? (signal ? 1 : 0), output }));
  });
}

type Report = Record<string, unknown> & { testResults: unknown[]; success: boolean; startTime: number };

/** The two runs' JSON reports as one: counts added up, files together. */
function mergeReports(main: Report, alone: Report): Report {
  const merged: Report = { ...main, testResults: [...main.testResults, ...alone.testResults] };
  for (const [key, value] of Object.entries(alone)) {
    if (key.startsWith('num') && typeof value === 'number') merged[key] = Number(main[key] ?? 0) + value;
  }
  merged.success = main.success && alone.success;
  merged.startTime = Math.min(main.startTime, alone.startTime);
  return merged;
}

async function main(): Promise<number> {
  const args = process.argv.slice(2);
  if (chooses(args)) return (await vitest(args, { nice: false, capture: false })).code;

  // Built once here, not by both runs' global setups at once.
  ensureSite(ROOT, (reason) => console.log(`Building the site into web/dist (${reason}) ...`));
  const report = jsonReport(args);
  const aloneReport = report && report.replace(/(\.json)?$/, '.alone.json');
  const aloneArgs = report ? args.map((arg) => arg.replace(report, aloneReport!)) : args;
  if (aloneReport) rmSync(aloneReport, { force: true });
  const nice = haveNice();
  console.log(
    nice
      ? `Two vitest runs at once: project ${ALONE_PROJECT} at the normal priority (its report follows the other's), the others at nice 19.`
      : `Two vitest runs, one after the other (no \`nice\` here): project ${ALONE_PROJECT} after the others.`,
  );
  // Beside the others' run, its output collected and printed after theirs; without `nice` (the
  // others' run would take half the cores from the alone suites), after it, printed as it runs.
  const runAlone = (capture: boolean) => vitest(['--project', ALONE_PROJECT, ...aloneArgs], { nice: false, capture });
  const alone = nice ? runAlone(true) : undefined;
  const rest = await vitest(['--project', `!${ALONE_PROJECT}`, ...args], { nice, capture: false });
  process.stdout.write(`\n--- project ${ALONE_PROJECT} ---\n`);
  const aloneResult = await (alone ?? runAlone(false));
  process.stdout.write(aloneResult.output);

  if (report && aloneReport && existsSync(report) && existsSync(aloneReport)) {
    const merged = mergeReports(JSON.parse(readFileSync(report, 'utf8')) as Report, JSON.parse(readFileSync(aloneReport, 'utf8')) as Report);
    writeFileSync(report, JSON.stringify(merged));
    rmSync(aloneReport);
  }
  console.log(
    `\nnpm test: ${rest.code === 0 ? 'passed' : 'FAILED'} (all but ${ALONE_PROJECT}), ${aloneResult.code === 0 ? 'passed' : 'FAILED'} (${ALONE_PROJECT})`,
  );
  return rest.code || aloneResult.code;
}

process.exitCode = await main();
