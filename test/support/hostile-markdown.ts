import type { Page } from 'playwright-core';

// Descriptions written to run code in a reader's browser. Each payload that could run sets
// `window.__pwned` (or opens a dialog), so a test sees at once whether anything ran; the rendered
// HTML is also checked for what must never survive sanitizing (site.md, "Markdown": no script, no
// event-handler attribute, no javascript:/vbscript:/data: link or image source).

/** The flag a payload sets when it runs. */
export const PWNED = '__pwned';

export interface HostileCase {
  name: string;
  markdown: string;
}

const set = (name: string) => `window.${PWNED}='${name}'`;

export const HOSTILE_MARKDOWN: readonly HostileCase[] = [
  { name: 'script tag', markdown: `Before\n\n<script>${set('script')}</script>\n\nAfter` },
  { name: 'script tag inline', markdown: `Text <script>${set('script-inline')}</script> text` },
  { name: 'img onerror', markdown: `<img src="x" onerror="${set('img-onerror')}">` },
  { name: 'img onerror unquoted', markdown: `<img src=x onerror=${set('img-unquoted')}>` },
  { name: 'svg onload', markdown: `<svg onload="${set('svg-onload')}"><circle r="1"/></svg>` },
  { name: 'svg script', markdown: `<svg><script>${set('svg-script')}</script></svg>` },
  { name: 'svg animate', markdown: `<svg><animate onbegin="${set('svg-animate')}" attributeName="x" dur="1s"/></svg>` },
  { name: 'svg xlink', markdown: `<svg><a xlink:href="javascript:${set('svg-xlink')}"><text y="10">svg link</text></a></svg>` },
  { name: 'markdown javascript link', markdown: `[click me](javascript:${set('md-link')})` },
  { name: 'markdown alert link', markdown: '[x](javascript:alert(1))' },
  { name: 'markdown vbscript link', markdown: '[vb](vbscript:msgbox(1))' },
  { name: 'markdown data link', markdown: '[data](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)' },
  { name: 'markdown entity link', markdown: '[entity](&#106;avascript:alert(1))' },
  { name: 'markdown reference link', markdown: `[ref][r]\n\n[r]: javascript:${set('md-ref')}` },
  { name: 'markdown javascript image', markdown: '![img](javascript:alert(1))' },
  { name: 'markdown data image', markdown: '![svg](data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9ImFsZXJ0KDEpIi8+)' },
  { name: 'autolink javascript', markdown: '<javascript:alert(1)>' },
  { name: 'autolink data', markdown: '<data:text/html,<script>alert(1)</script>>' },
  { name: 'autolinks plain', markdown: 'Visit https://example.com/ and www.example.com or <https://example.org/>.' },
  { name: 'raw javascript link', markdown: '<a href="javascript:alert(1)">raw link</a>' },
  {
    name: 'raw link with entities',
    markdown: '<a href="&#106;&#97;vascript:alert(1)">entities</a> <a href="jav&#x09;ascript:alert(1)">tab</a> <a href=" JaVaScRiPt:alert(1)">case</a>',
  },
  { name: 'raw data link', markdown: '<a href="data:text/html,<script>alert(1)</script>">data</a>' },
  { name: 'raw vbscript link', markdown: '<a href="vbscript:msgbox(1)">vb</a>' },
  { name: 'iframe', markdown: `<iframe src="javascript:${set('iframe')}"></iframe>` },
  { name: 'iframe srcdoc', markdown: `<iframe srcdoc="<script>parent.${PWNED}='srcdoc'</script>"></iframe>` },
  { name: 'object and embed', markdown: '<object data="javascript:alert(1)"></object><embed src="javascript:alert(1)">' },
  {
    name: 'form actions',
    markdown: '<form action="javascript:alert(1)"><button formaction="javascript:alert(1)">go</button><input type="image" src="javascript:alert(1)"></form>',
  },
  { name: 'details ontoggle', markdown: `<details open ontoggle="${set('ontoggle')}"><summary>s</summary>d</details>` },
  { name: 'autofocus onfocus', markdown: `<input autofocus onfocus="${set('onfocus')}">` },
  { name: 'video source onerror', markdown: `<video><source onerror="${set('source')}"></video>` },
  { name: 'body onload', markdown: `<body onload="${set('body')}">` },
  { name: 'style tag', markdown: '<style>main{display:none} body{background:url(javascript:alert(1))}</style>Styled?' },
  { name: 'style attribute', markdown: '<div style="background:url(javascript:alert(1));position:fixed;inset:0">overlay</div>' },
  { name: 'meta refresh and base', markdown: '<meta http-equiv="refresh" content="0;url=javascript:alert(1)"><base href="javascript:/">' },
  { name: 'unclosed tag', markdown: `<img src=x onerror="${set('unclosed')}"` },
  { name: 'broken nesting', markdown: `<div <script>${set('broken')}</script>\n\n<<script>script>${set('double')}<</script>/script>` },
  { name: 'split script', markdown: `<scr<script>ipt>${set('split')}</scr</script>ipt>` },
  { name: 'mutation xss', markdown: `<math><mtext><table><mglyph><style><img src=x onerror="${set('mxss')}">` },
  { name: 'noscript mutation', markdown: `<noscript><p title="</noscript><img src=x onerror=${set('noscript')}>">` },
  { name: 'entity-encoded tags', markdown: `&lt;script&gt;${set('entities')}&lt;/script&gt; and &#60;img src=x onerror=alert(1)&#62;` },
  { name: 'code fence', markdown: `\`\`\`html\n<script>${set('fence')}</script>\n\`\`\`` },
  { name: 'table cell', markdown: `| a | b |\n|---|---|\n| <img src=x onerror="${set('table')}"> | [x](javascript:alert(1)) |` },
];

/** A title that is HTML: it must read as text. */
export const HOSTILE_TITLE = `<img src=x onerror="${set('title')}"> Hostile title`;

const section = (c: HostileCase) => `### ${c.name}\n\n${c.markdown}\n`;

/** Every case in one description, as a person might paste it into the editor. */
export const ALL_HOSTILE_MARKDOWN = HOSTILE_MARKDOWN.map(section).join('\n');

/** The same, last case first: broken HTML may swallow the cases after it. */
export const ALL_HOSTILE_MARKDOWN_REVERSED = [...HOSTILE_MARKDOWN].reverse().map(section).join('\n');

// The functions below run in the page (page.evaluate): the browser's globals, which this Node.js
// project has no types for.
declare const window: any;
declare const document: any;

/** What must never be in the document: handlers, scripts in the rendered text, dangerous URLs. */
export async function dangers(page: Page): Promise<string[]> {
  return page.evaluate((flag) => {
    const found: string[] = [];
    const ran = window[flag];
    if (ran !== undefined) found.push(`the payload ran: ${String(ran)}`);
    const scheme = /^(javascript|vbscript|data):/;
    // Browsers ignore ASCII whitespace and control characters inside a URL's scheme.
    const normalize = (value: string) =>
      Array.from(value)
        .filter((c) => c.charCodeAt(0) > 32)
        .join('')
        .toLowerCase();
    const body = document.querySelector('main');
    for (const element of Array.from(document.querySelectorAll('*')) as any[]) {
      for (const attribute of Array.from(element.attributes) as { name: string; value: string }[]) {
        const name = attribute.name.toLowerCase();
        if (name.startsWith('on')) found.push(`<${element.localName} ${name}>`);
        // URLs: in what the page renders (the app's own head may hold a data: icon).
        if (
          body?.contains(element) &&
          ['href', 'src', 'xlink:href', 'action', 'formaction', 'data', 'poster', 'background', 'srcdoc', 'srcset'].includes(name) &&
          (name === 'srcdoc' || scheme.test(normalize(attribute.value)))
        ) {
          found.push(`<${element.localName} ${name}="${attribute.value}">`);
        }
      }
    }
    for (const tag of ['script', 'iframe', 'object', 'embed', 'style', 'base', 'meta', 'frame', 'frameset']) {
      const count = body?.querySelectorAll(tag).length ?? 0;
      if (count > 0) found.push(`${count} <${tag}> in main`);
    }
    return found;
  }, PWNED);
}

/** The CSP reports Chromium makes on parsing (not running) an inline handler, style attribute or style element. */
export const INERT_PARSE =
  /^(Executing inline event handler violates|Applying inline style violates|script-src-attr inline|style-src-attr inline|style-src-elem inline)/;
