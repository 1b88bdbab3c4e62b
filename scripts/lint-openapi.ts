import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { writeOpenApiDocument } from './openapi/document-file.ts';

// `npm run lint:openapi`: the OpenAPI document as lib/openapi/ builds it, linted by Spectral (the
// `spectral:oas` rules, .spectral.yaml) and by Redocly CLI (its `recommended` rules, redocly.yaml).
// Either one's error fails the run; warnings are printed. The document is written to
// test-results/openapi.json, where the tools read it (and a reader can open it).

const root = join(import.meta.dirname, '..');
const file = writeOpenApiDocument(join(root, 'test-results', 'openapi.json'));
const bin = (name: string) => join(root, 'node_modules', '.bin', name);

const runs: [string, string, string[]][] = [
  ['Spectral (spectral:oas)', bin('spectral'), ['lint', '--ruleset', join(root, '.spectral.yaml'), '--fail-severity', 'error', file]],
  ['Redocly (recommended)', bin('redocly'), ['lint', '--config', join(root, 'redocly.yaml'), '--format', 'stylish', file]],
];

let failed = false;
for (const [name, command, args] of runs) {
  console.log(`\n${name}: ${file}`);
  const run = spawnSync(command, args, {
    cwd: root,
    stdio: 'inherit',
    // No telemetry, update notices or announcements from Redocly.
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', REDOCLY_SUPPRESS_NOTIFICATIONS: 'true' },
  });
  if (run.status !== 0) {
    console.error(`${name}: ${run.error ? run.error.message : `exit ${run.status ?? run.signal}`}`);
    failed = true;
  }
}
process.exit(failed ? 1 : 0);
