import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createServer } from 'vite';
import { localSettings } from './local/settings.ts';

// `npm run dev`: one command for working on the site. The local API stack (`npm start`'s, without
// serving web/dist) on PORT, and Vite's development server with hot reload on VITE_PORT (default
// 5173), which proxies /api to the API: the same origin as deployed, so no CORS.

const root = join(import.meta.dirname, '..');
const { port } = localSettings();
const vitePort = Number(process.env.VITE_PORT ?? 5173);

// The types first: the pages are written against the API's current contract.
const types = spawn(process.execPath, ['--import', 'tsx', join(root, 'scripts', 'web', 'api-types.ts')], { cwd: root, stdio: 'inherit' });
await new Promise<void>((done, fail) => types.once('exit', (code) => (code === 0 ? done() : fail(new Error(`API types: exit ${code}`)))));

const stack = spawn(process.execPath, ['--import', 'tsx', join(root, 'scripts', 'start.ts')], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, SERVE_SITE: '0' },
});

const vite = await createServer({
  configFile: join(root, 'web', 'vite.config.ts'),
  server: { port: vitePort, strictPort: true, proxy: { '/api': { target: `http://127.0.0.1:${port}` } } },
});
await vite.listen();
// The address last, once the API answers, so it is the line to click.
for (let waited = 0; waited < 180_000; waited += 500) {
  if (
    await fetch(`http://127.0.0.1:${port}/api/v1`).then(
      (answer) => answer.ok,
      () => false,
    )
  )
    break;
  await new Promise((done) => setTimeout(done, 500));
}
console.log(`\nSite (hot reload): http://127.0.0.1:${vitePort}/   (Vite; /api goes to the API at http://127.0.0.1:${port}/api/v1)\n`);

const stop = async (code: number) => {
  await vite.close();
  if (stack.exitCode === null) {
    stack.kill('SIGTERM');
    await new Promise((done) => stack.once('exit', done));
  }
  process.exit(code);
};
process.once('SIGINT', () => void stop(0));
process.once('SIGTERM', () => void stop(0));
stack.once('exit', (code) => {
  console.error(`The API stack stopped (exit ${code}); stopping the site too.`);
  void stop(code ?? 1);
});
