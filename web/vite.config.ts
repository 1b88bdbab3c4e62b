import { fileURLToPath } from 'node:url';
import preact from '@preact/preset-vite';
import { defineConfig } from 'vite';

// The site's build (`npm run build:web`) and development server (`npm run dev`). The API is the
// same origin at /api/v1: deployed through CloudFront, locally through `npm start`; the dev server
// proxies /api to the API that `npm run dev` starts (API_ORIGIN).

const root = fileURLToPath(new URL('.', import.meta.url));

export default defineConfig({
  root,
  plugins: [preact({ prerender: { enabled: false } })],
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
