import { join } from 'node:path';
import { buildSite } from './site-build.ts';

// `npm run build:web`: the API types from the service's OpenAPI document, the site type-checked
// against them, then Vite's production build into web/dist.

const root = join(import.meta.dirname, '..', '..');
const started = Date.now();
buildSite(root);
console.log(`Site built into web/dist in ${((Date.now() - started) / 1000).toFixed(1)} s`);
