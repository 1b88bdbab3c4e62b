import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { BUNDLING, PROJECT_ROOT } from '../../infra/api-function.ts';
import { FALLBACK_HANDLER, ROUTES } from '#lib/routes.ts';
import { spread, type Spread } from './stats.ts';

// Part 2: bundle bytes and cold import time of every function, beside a floor handler.

export interface BundleFigures {
  name: string;
  bytes: number;
  importMs: Spread;
}

async function bundle(entry: string, outfile: string): Promise<number> {
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
    sourcemap: BUNDLING.sourceMap ? 'external' : false,
    sourcesContent: false,
    logLevel: 'warning',
  });
  return statSync(outfile).size;
}

function importOnce(file: string): number {
  const script = `const t = performance.now(); await import(${JSON.stringify(pathToFileURL(file).href)}); process.stdout.write(String(performance.now() - t));`;
  const result = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
    env: { PATH: process.env.PATH, AWS_REGION: 'us-east-1', TABLE_NAME: 'bench', AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
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
      built.push({ name, outfile, bytes: await bundle(entry, outfile), samples: [] as number[] });
    }
    // Round-robin, so that a slow moment of the machine spreads over every bundle alike.
    for (let run = 0; run < runs; run++) {
      for (const item of built) item.samples.push(importOnce(item.outfile));
    }
    const figures = built.map((item) => ({ name: item.name, bytes: item.bytes, importMs: spread(item.samples) }));
    return { floor: figures[0]!, functions: figures.slice(1) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

