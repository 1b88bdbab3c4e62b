import type { WindowLike } from 'dompurify';
import { locationStub } from 'preact-iso/prerender';
import { renderToStringAsync } from 'preact-render-to-string';
import type { PreloadedAnswers } from '../../lib/site/reads.ts';
import { App } from './App.tsx';
import { setRenderer } from './components/Markdown.tsx';
import { markdownRenderer } from './markdown.ts';
import { setPreloaded } from './preloaded.ts';
import { setSiteName } from './site.ts';

// The app rendered on the server (lib/pages/ calls it; Vite builds it into web/dist-server/render.mjs):
// the same components as in the browser, from the API answers the server read, as a visitor sees them.

export interface PageInput {
  /** The page's path and query. */
  url: string;
  answers: PreloadedAnswers;
  siteName: string;
  /** A DOM window (jsdom) for DOMPurify: the post's Markdown is sanitized as in the browser. */
  window: WindowLike;
}

let renderer: { window: WindowLike; render: (source: string) => string } | undefined;

// One render at a time: the answers and the settings are the modules' state while it runs.
let queue: Promise<unknown> = Promise.resolve();

/** The HTML of `#app` for a page. */
export function renderPage(input: PageInput): Promise<string> {
  const run = async () => {
    if (renderer?.window !== input.window) renderer = { window: input.window, render: markdownRenderer(input.window) };
    setRenderer(renderer.render);
    setSiteName(input.siteName);
    setPreloaded({ ...input.answers }, false);
    // The router reads the address from `location`, which a server has not.
    locationStub(input.url);
    return renderToStringAsync(<App url={input.url} />);
  };
  const result = queue.then(run, run);
  queue = result.catch(() => undefined);
  return result;
}
