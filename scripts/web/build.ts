import { join } from 'node:path';
import { buildSite, ensureSite } from './site-build.ts';

// `npm run build:web`: the API types from the service's OpenAPI document, the site type-checked
// against them, then Vite's production build into web/dist. With `--if-stale` (the CDK app's
// command in cdk.json, so that `cdk deploy` and `npm run synth` ship the current site) only when
// web/dist is missing or older than its sources.

const root = join(import.meta.dirname, '..', '..');
const started = Date.now();
const ifStale = process.argv.includes('--if-stale');
const reason = ifStale ? ensureSite(root) : (buildSite(root), 'asked');
if (reason) console.error(`Site built into web/dist (${reason}) in ${((Date.now() - started) / 1000).toFixed(1)} s`);
