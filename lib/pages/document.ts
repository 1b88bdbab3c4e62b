import { PRELOADED_ID, type PreloadedAnswers } from '#lib/site/reads.ts';
import { jsonBlock } from './escape.ts';

// A page is the build's index.html (its scripts and styles, named by their hashes) with the
// page's head and, in `#app`, the HTML the app's components rendered, followed by the API
// answers they were rendered from.

/** What the build's page holds that every page replaces: its title, description and feed link. */
const REPLACED = [/\s*<title>[^<]*<\/title>/i, /\s*<meta\s+name="description"[^>]*>/i, /\s*<link\s+rel="alternate"[^>]*>/i];

const APP = /<div id="app"><\/div>/;

/** A page of `template` with `head` and, unless it is the app's shell, the rendered app and its answers. */
export function pageDocument(template: string, head: string, app?: { html: string; answers: PreloadedAnswers }): string {
  let page = template;
  for (const pattern of REPLACED) page = page.replace(pattern, '');
  if (!page.includes('</head>') || !APP.test(page)) throw new Error('The page template lacks </head> or an empty <div id="app">.');
  page = page.replace('</head>', `  ${head}\n  </head>`);
  if (!app) return page;
  const data = Object.keys(app.answers).length > 0 ? `<script type="application/json" id="${PRELOADED_ID}">${jsonBlock(app.answers)}</script>` : '';
  return page.replace(APP, () => `<div id="app">${app.html}</div>${data}`);
}
