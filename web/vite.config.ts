import { fileURLToPath } from 'node:url';
import preact from '@preact/preset-vite';
import { defineConfig, type Plugin } from 'vite';

// The site's build (`npm run build:web`) and development server (`npm run dev`). The API is the
// same origin at /api/v1: deployed through CloudFront, locally through `npm start`; the dev server
// proxies /api to the API that `npm run dev` starts (API_ORIGIN).

const root = fileURLToPath(new URL('.', import.meta.url));

/**
 * `virtual:renderer-url`: the address of the Markdown renderer's chunk (src/markdown.ts). A browser
 * keeps a failed dynamic import for the page's life (Chromium answers it again from its module map
 * without a request), so loading the renderer again after a failure imports this address with a
 * query string of its own (components/Markdown.tsx).
 */
function rendererUrl(): Plugin {
  const id = 'virtual:renderer-url';
  const resolved = `\0${id}`;
  const renderer = fileURLToPath(new URL('src/markdown.ts', import.meta.url));
  let build = false;
  let reference = '';
  return {
    name: 'renderer-url',
    configResolved(config) {
      build = config.command === 'build';
    },
    buildStart() {
      // The same chunk as the renderer's dynamic import: Rollup makes one chunk of a module.
      if (build) reference = this.emitFile({ type: 'chunk', id: renderer });
    },
    resolveId: (source) => (source === id ? resolved : null),
    load: (loaded) => {
      if (loaded !== resolved) return null;
      return build ? `export default import.meta.ROLLUP_FILE_URL_${reference};` : `export default new URL('/src/markdown.ts', location.href).href;`;
    },
  };
}

export default defineConfig({
  root,
  plugins: [preact({ prerender: { enabled: false } }), rendererUrl()],
  build: {
    outDir: process.env.SITE_OUT_DIR ?? 'dist',
    emptyOutDir: true,
    target: 'es2022',
    // Hashed names under /assets/ are what the servers cache for a year (immutable).
    assetsDir: 'assets',
    // No inline data: URLs (the CSP allows images from 'self' and https: only).
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
  },
  server: {
    host: '127.0.0.1',
    proxy: { '/api': { target: process.env.API_ORIGIN ?? 'http://127.0.0.1:3000', changeOrigin: false } },
  },
});
