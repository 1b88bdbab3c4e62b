import { fileURLToPath } from 'node:url';
import preact from '@preact/preset-vite';
import { defineConfig, type Plugin } from 'vite';

// The site's build (`npm run build:web`) and development server (`npm run dev`). The API is the
// same origin at /api/v1: deployed through CloudFront, locally through `npm start`; the dev server
// proxies /api to the API that `npm run dev` starts (API_ORIGIN).

const root = fileURLToPath(new URL('.', import.meta.url));

/**
 * `virtual:<name>-url`: the address of a lazily loaded chunk (the Markdown renderer, src/markdown.ts;
 * the comments, src/components/Comments.tsx). A browser keeps a failed dynamic import for the
 * page's life (Chromium answers it again from its module map without a request), so loading the
 * chunk again after a failure imports this address with a query string of its own
 * (components/Markdown.tsx, pages/Post.tsx).
 */
function chunkUrl(id: string, source: string): Plugin {
  const resolved = `\0${id}`;
  const file = fileURLToPath(new URL(source, import.meta.url));
  let build = false;
  let server = false;
  let reference = '';
  return {
    name: id,
    configResolved(config) {
      build = config.command === 'build';
      server = Boolean(config.build.ssr);
    },
    buildStart() {
      // The same chunk as the module's dynamic import: Rollup makes one chunk of a module.
      if (build && !server) reference = this.emitFile({ type: 'chunk', id: file });
    },
    resolveId: (requested) => (requested === id ? resolved : null),
    load: (loaded) => {
      if (loaded !== resolved) return null;
      // The server renders in one file and never loads a chunk again: no address to give.
      if (server) return `export default '';`;
      return build ? `export default import.meta.ROLLUP_FILE_URL_${reference};` : `export default new URL('/${source}', location.href).href;`;
    },
  };
}

export default defineConfig({
  root,
  plugins: [
    preact({ prerender: { enabled: false } }),
    chunkUrl('virtual:renderer-url', 'src/markdown.ts'),
    chunkUrl('virtual:comments-url', 'src/components/Comments.tsx'),
  ],
  build: {
    outDir: process.env.SITE_OUT_DIR ?? 'dist',
    emptyOutDir: true,
    target: 'es2022',
    // Hashed names under /assets/ are what the servers cache for a year (immutable).
    assetsDir: 'assets',
    // No inline data: URLs (the CSP allows images from 'self' and https: only).
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    ...(process.env.SITE_SERVER_BUILD ? { rollupOptions: { output: { entryFileNames: 'render.mjs', inlineDynamicImports: true } }, copyPublicDir: false } : {}),
  },
  // The server's renderer (`vite build --ssr src/server.tsx`, scripts/web/site-build.ts): one
  // file with everything it imports, which the page function loads (lib/pages/render.ts).
  ssr: { noExternal: true, target: 'node' },
  server: {
    host: '127.0.0.1',
    proxy: { '/api': { target: process.env.API_ORIGIN ?? 'http://127.0.0.1:3000', changeOrigin: false } },
  },
});
