import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { BUNDLING, PROJECT_ROOT, tracerDefine } from '../../infra/api-function.ts';
import { TRACING_VARIABLE } from '#lib/config.ts';
import { searchPath } from '../local/settings.ts';
import { FALLBACK_HANDLER, ROUTES } from '#lib/routes.ts';
import { spread, type Spread } from './stats.ts';

// Part 2: bundle bytes and cold import time of every function, beside a floor handler; each
// function's import with tracing off (the default: the goal) and on (`-c tracing=true`).

export interface BundleFigures {
  name: string;
  bytes: number;
  /** Cold import with tracing off, as deployed by default. */
  importMs: Spread;
  /** With tracing on (`-c tracing=true`): the bundle with the Tracer, and its cold import with it loaded; not for the floor. */
  traced?: { bytes: number; importMs: Spread };
}

async function bundle(entry: string, outfile: string, tracing = false): Promise<number> {
  await build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: BUNDLING.target ?? 'node22',
    mainFields: BUNDLING.mainFields ?? ['module', 'main'],
    banner: { js: BUNDLING.banner ?? '' },
    minify: BUNDLING.minify ?? true,
    define: tracerDefine(tracing),
    sourcemap: BUNDLING.sourceMap ? 'external' : false,
    sourcesContent: false,
    logLevel: 'warning',
  });
  return statSync(outfile).size;
}

function importOnce(file: string, traced = false): number {
  const script = `const t = performance.now(); await import(${JSON.stringify(pathToFileURL(file).href)}); process.stdout.write(String(performance.now() - t));`;
  const result = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
    env: {
      PATH: searchPath(),
      AWS_REGION: 'us-east-1',
      TABLE_NAME: 'bench',
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
      // What Lambda sets before the code loads (the X-Ray SDK reads LAMBDA_TASK_ROOT at import).
      AWS_EXECUTION_ENV: 'AWS_Lambda_nodejs22.x',
      AWS_LAMBDA_FUNCTION_NAME: 'bench',
      AWS_LAMBDA_INITIALIZATION_TYPE: 'on-demand',
      LAMBDA_TASK_ROOT: dirname(file),
      ...(traced ? { [TRACING_VARIABLE]: 'true', AWS_XRAY_CONTEXT_MISSING: 'LOG_ERROR' } : {}),
    },
    encoding: 'utf8',
  });
  if (result.status !== 0) throw new Error(`importing ${file} failed: ${result.stderr}`);
  return Number(result.stdout);
}

export async function measureBundles(runs: number): Promise<{ floor: BundleFigures; functions: BundleFigures[] }> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-bundles-'));
  try {
    const handlers = [...new Set([...ROUTES.map((route) => route.handler), FALLBACK_HANDLER])];
    const entries = [
      { name: 'floor (one GetItem)', entry: join(PROJECT_ROOT, 'scripts', 'bench', 'floor-handler.ts') },
      ...handlers.map((handler) => ({ name: handler, entry: join(PROJECT_ROOT, 'functions', `${handler}.ts`) })),
    ];
    const built = [];
    for (const [i, { name, entry }] of entries.entries()) {
      const outfile = join(dir, `bundle-${i}.mjs`);
      const item = {
        name,
        outfile,
        bytes: await bundle(entry, outfile),
        samples: [] as number[],
        traced: undefined as { outfile: string; bytes: number; samples: number[] } | undefined,
      };
      if (i > 0) {
        const traced = join(dir, `bundle-${i}-traced.mjs`);
        item.traced = { outfile: traced, bytes: await bundle(entry, traced, true), samples: [] };
      }
      built.push(item);
    }
    // Round-robin, so that a slow moment of the machine spreads over every bundle alike.
    for (let run = 0; run < runs; run++) {
      for (const item of built) {
        item.samples.push(importOnce(item.outfile));
        item.traced?.samples.push(importOnce(item.traced.outfile, true));
      }
    }
    const figures = built.map((item) => ({
      name: item.name,
      bytes: item.bytes,
      importMs: spread(item.samples),
      ...(item.traced ? { traced: { bytes: item.traced.bytes, importMs: spread(item.traced.samples) } } : {}),
    }));
    return { floor: figures[0]!, functions: figures.slice(1) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
