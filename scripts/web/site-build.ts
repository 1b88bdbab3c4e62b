import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';

// Building the site (web/ into web/dist) and knowing when it must be rebuilt: `npm start` and the
// test suites' global setup build it when web/dist is missing or older than a source of web/.

/**
 * The newest modification time under `dir`: its files', and its subfolders' (a file removed or
 * renamed). Not `dir`'s own: web/ changes with every build, which swaps web/dist in.
 */
function newest(dir: string, skip: Set<string>, self = false): number {
  if (!existsSync(dir)) return 0;
  let time = self ? statSync(dir).mtimeMs : 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (skip.has(entry.name)) continue;
    const path = join(dir, entry.name);
    time = Math.max(time, entry.isDirectory() ? newest(path, skip, true) : statSync(path).mtimeMs);
  }
  return time;
}

/** Why web/dist must be built, or undefined when it is current. */
export function siteStaleness(root: string): 'missing' | 'older than web/ sources' | undefined {
  const index = join(root, 'web', 'dist', 'index.html');
  if (!existsSync(index) || !existsSync(join(root, 'web', 'dist-server', 'render.mjs'))) return 'missing';
  const sources = newest(join(root, 'web'), new Set(['dist', 'dist-server', 'node_modules', 'schema.d.ts']));
  // The API's contract is a source too: the types are generated from lib/openapi/. So is the
  // slug derivation the site imports (lib/slugs/, web/src/api/tags.ts).
  const shared = Math.max(newest(join(root, 'lib', 'openapi'), new Set()), newest(join(root, 'lib', 'slugs'), new Set()));
  return Math.max(sources, shared) > statSync(index).mtimeMs ? 'older than web/ sources' : undefined;
}

/**
 * What in a page the CSP (`script-src 'self'; style-src 'self'`) would refuse: an inline script,
 * an inline style element or attribute, an event-handler attribute; undefined when none.
 */
export function inlineCode(html: string): string | undefined {
  if (/<script\b(?![^>]*\bsrc=)[^>]*>/i.test(html)) return 'an inline script';
  if (/<style\b/i.test(html)) return 'a style element';
  if (/<[^>]+\sstyle\s*=/i.test(html)) return 'a style attribute';
  if (/<[^>]+\son[a-z]+\s*=/i.test(html)) return 'an event-handler attribute';
  return undefined;
}

function run(root: string, what: string, args: string[]): void {
  const result = spawnSync(process.execPath, args, { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) throw new Error(`${what} failed (${result.error?.message ?? `exit ${result.status ?? result.signal}`})`);
}

/**
 * The builds' environment: a production build whoever asks for it. Vitest sets NODE_ENV=test, and
 * the tests' global setup builds a missing site: Vite would keep it and build Preact's debugging
 * code in (hydration warnings on every server-rendered page).
 */
const PRODUCTION_ENV = { ...process.env, NODE_ENV: 'production' };

/**
 * Types, type check, Vite build. The build goes to a folder of its own and then takes web/dist's
 * place, so a server never serves a half-written site and two builds at once do not mix.
 */
export function buildSite(root: string): void {
  run(root, 'Generating the API types', ['--import', 'tsx', join(root, 'scripts', 'web', 'api-types.ts')]);
  run(root, 'Type-checking web/', [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '--noEmit', '-p', join(root, 'web', 'tsconfig.json')]);
  const out = join(root, 'web', `.dist-${process.pid}`);
  rmSync(out, { recursive: true, force: true });
  const vite = spawnSync(
    process.execPath,
    [join(root, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--config', join(root, 'web', 'vite.config.ts'), '--logLevel', 'warn'],
    {
      cwd: join(root, 'web'),
      stdio: 'inherit',
      env: { ...PRODUCTION_ENV, SITE_OUT_DIR: out },
    },
  );
  if (vite.status !== 0) {
    rmSync(out, { recursive: true, force: true });
    throw new Error(`vite build failed (exit ${vite.status ?? vite.signal})`);
  }
  const problem = inlineCode(readFileSync(join(out, 'index.html'), 'utf8'));
  if (problem) {
    rmSync(out, { recursive: true, force: true });
    throw new Error(`web/dist/index.html has ${problem}, which the site's Content-Security-Policy refuses`);
  }
  // The server's renderer of the same sources, beside the page it fills (the build's index.html):
  // web/dist-server, which the page function carries (lib/pages/render.ts).
  const serverOut = `${out}-server`;
  rmSync(serverOut, { recursive: true, force: true });
  const ssr = spawnSync(
    process.execPath,
    [
      join(root, 'node_modules', 'vite', 'bin', 'vite.js'),
      'build',
      '--config',
      join(root, 'web', 'vite.config.ts'),
      '--logLevel',
      'warn',
      '--ssr',
      'src/server.tsx',
    ],
    { cwd: join(root, 'web'), stdio: 'inherit', env: { ...PRODUCTION_ENV, SITE_OUT_DIR: serverOut, SITE_SERVER_BUILD: '1' } },
  );
  if (ssr.status !== 0) {
    rmSync(out, { recursive: true, force: true });
    rmSync(serverOut, { recursive: true, force: true });
    throw new Error(`vite build --ssr failed (exit ${ssr.status ?? ssr.signal})`);
  }
  copyFileSync(join(out, 'index.html'), join(serverOut, 'index.html'));
  for (const [from, to] of [
    [serverOut, join(root, 'web', 'dist-server')],
    [out, join(root, 'web', 'dist')],
  ] as const) {
    rmSync(to, { recursive: true, force: true });
    renameSync(from, to);
  }
}

/** Builds the site when it is missing or stale; says why (also to `onBuild` first), or undefined when it was current. */
export function ensureSite(root: string, onBuild?: (reason: string) => void): string | undefined {
  const reason = siteStaleness(root);
  if (!reason) return undefined;
  onBuild?.(reason);
  buildSite(root);
  return reason;
}
