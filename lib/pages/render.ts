import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { JSDOM } from 'jsdom';
import { siteBuildDir } from '#lib/config.ts';
import type { PreloadedAnswers } from '#lib/site/reads.ts';

// The site's own components rendered to HTML: the build's server renderer (web/src/server.tsx,
// built by Vite into web/dist-server/render.mjs beside the build's index.html), which the page
// function carries in its bundle's site/ folder. Loaded once per instance, with the one jsdom
// window DOMPurify sanitizes posts in.

interface ServerRenderer {
  renderPage(input: { url: string; answers: PreloadedAnswers; siteName: string; window: unknown }): Promise<string>;
}

interface Build {
  renderer: ServerRenderer;
  template: string;
  window: unknown;
}

let build: Promise<Build> | undefined;

function folder(): string {
  return siteBuildDir() ?? fileURLToPath(new URL('./site/', import.meta.url));
}

async function load(): Promise<Build> {
  const dir = folder();
  const [renderer, template] = await Promise.all([
    import(pathToFileURL(join(dir, 'render.mjs')).href) as Promise<ServerRenderer>,
    readFile(join(dir, 'index.html'), 'utf8'),
  ]);
  return { renderer, template, window: new JSDOM('').window };
}

function loaded(): Promise<Build> {
  build ??= load().catch((error: unknown) => {
    build = undefined;
    throw error;
  });
  return build;
}

/** The build's page, to fill (lib/pages/document.ts). */
export async function pageTemplate(): Promise<string> {
  return (await loaded()).template;
}

/** The HTML of `#app` for the page at `url` (path and query), from the API answers read for it. */
export async function renderApp(url: string, answers: PreloadedAnswers, siteName: string): Promise<string> {
  const { renderer, window } = await loaded();
  return renderer.renderPage({ url, answers, siteName, window });
}
