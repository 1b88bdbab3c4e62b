import DOMPurify, { type WindowLike } from 'dompurify';
import MarkdownIt from 'markdown-it';

// A post's description, Markdown (CommonMark with GitHub's tables, fenced code and autolinks), as
// HTML that is safe to show: markdown-it renders it (raw HTML included), then DOMPurify keeps
// only an allow-list of elements and attributes. No script, no event handler, no style, no
// javascript:, vbscript: or data: URL survives; links leave with rel="noopener noreferrer nofollow ugc".
// Loaded only by the pages that show Markdown, so the lists stay small.

const markdown = new MarkdownIt('commonmark', { html: true, linkify: true, typographer: false }).enable(['table', 'strikethrough', 'linkify']);

// Tables align their cells with style attributes, which the CSP (style-src 'self') refuses: a class instead.
markdown.core.ruler.push('align-class', (state) => {
  for (const token of state.tokens) {
    if (token.type !== 'th_open' && token.type !== 'td_open') continue;
    const style = token.attrGet('style');
    const align = typeof style === 'string' && /text-align:\s*(left|center|right)/.exec(style)?.[1];
    if (token.attrs) token.attrs = token.attrs.filter(([name]) => name !== 'style');
    if (align) token.attrSet('class', `align-${align}`);
  }
});

// The page's one h1 is the post's title: the description's top heading level becomes h2, the
// others keep their steps below it, so the page's outline has no gap.
markdown.core.ruler.push('heading-levels', (state) => {
  const headings = state.tokens.filter((token) => token.type === 'heading_open' || token.type === 'heading_close');
  const top = Math.min(...headings.map((token) => Number(token.tag.slice(1))));
  for (const token of headings) token.tag = `h${Math.min(6, Number(token.tag.slice(1)) - top + 2)}`;
});

// Chromium reports a CSP violation as soon as an event-handler or style attribute is parsed, even in
// the inert document DOMPurify parses into (nothing runs, but the console fills with errors): raw
// HTML has those attributes, and <style> elements, renamed before parsing; DOMPurify drops them.
const UNPARSED_ATTRIBUTE = /([\s"'/])(on[a-z]+|style)(\s*=)/gi;
const UNPARSED_ELEMENT = /<(\/?)(style)\b/gi;
markdown.core.ruler.push('defuse-raw-html', (state) => {
  const defuse = (html: string) => html.replace(UNPARSED_ATTRIBUTE, '$1data-removed-$2$3').replace(UNPARSED_ELEMENT, '<$1x-removed-$2');
  for (const token of state.tokens) {
    if (token.type === 'html_block') token.content = defuse(token.content);
    for (const child of token.children ?? []) if (child.type === 'html_inline') child.content = defuse(child.content);
  }
});

const ALLOWED_TAGS = [
  'a',
  'abbr',
  'b',
  'blockquote',
  'br',
  'code',
  'dd',
  'del',
  'details',
  'dl',
  'dt',
  'em',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'hr',
  'i',
  'img',
  'ins',
  'kbd',
  'li',
  'mark',
  'ol',
  'p',
  'pre',
  'q',
  's',
  'samp',
  'small',
  'span',
  'strong',
  'sub',
  'summary',
  'sup',
  'table',
  'tbody',
  'td',
  'tfoot',
  'th',
  'thead',
  'tr',
  'u',
  'ul',
];
const ALLOWED_ATTR = ['href', 'src', 'alt', 'title', 'class', 'start', 'colspan', 'rowspan', 'open', 'cite', 'datetime'];

/** Addresses a link or image may have: http(s), mailto, and addresses on this site. */
const SAFE_URL = /^(?:https?:|mailto:|[/#?]|\.{1,2}\/|[^:/?#]*(?:[/?#]|$))/i;

/**
 * A Markdown renderer sanitizing with DOMPurify in `window`: the browser's, or on the server a
 * jsdom window (web/src/server.tsx), so that both make the same HTML of a text.
 */
export function markdownRenderer(window?: WindowLike): (source: string) => string {
  const purify = window ? DOMPurify(window) : DOMPurify();
  purify.addHook('uponSanitizeAttribute', (_node, data) => {
    if (data.attrName === 'href' || data.attrName === 'src') {
      // Whitespace and control characters are what browsers skip in a scheme (java\tscript:).
      const value = [...data.attrValue].filter((c) => c > ' ' && (c < '\u007f' || c > '\u009f')).join('');
      if (!SAFE_URL.test(value)) data.keepAttr = false;
    }
    if (data.attrName === 'class' && !/^(?:align-(?:left|center|right)|language-[\w-]+)$/.test(data.attrValue)) data.keepAttr = false;
  });
  purify.addHook('afterSanitizeAttributes', (node) => {
    if (node.tagName === 'A') {
      node.setAttribute('rel', 'noopener noreferrer nofollow ugc');
      node.removeAttribute('target');
    }
    if (node.tagName === 'IMG') {
      node.setAttribute('loading', 'lazy');
      node.setAttribute('referrerpolicy', 'no-referrer');
      // An image without alt is read out by its address; alt="" marks it as decoration. Alone in a
      // link it is the link's only name: the link's address is then its text.
      if (!node.getAttribute('alt')?.trim()) {
        const link = node.closest('a');
        const alone =
          link !== null &&
          link.textContent?.trim() === '' &&
          [...link.querySelectorAll('img')].every((img) => img === node || !img.getAttribute('alt')?.trim());
        node.setAttribute('alt', alone ? (link.getAttribute('href') ?? '') : '');
      }
    }
  });

  return (source) =>
    purify.sanitize(markdown.render(source), {
      ALLOWED_TAGS,
      ALLOWED_ATTR: [...ALLOWED_ATTR, 'rel', 'loading', 'referrerpolicy'],
      ALLOW_DATA_ATTR: false,
      ALLOW_ARIA_ATTR: false,
      ALLOWED_URI_REGEXP: SAFE_URL,
      ADD_FORBID_CONTENTS: ['x-removed-style'],
      FORBID_TAGS: ['style', 'script', 'svg', 'math', 'iframe', 'object', 'embed', 'form', 'input', 'textarea', 'button', 'select'],
    });
}

let inBrowser: ((source: string) => string) | undefined;

/** Sanitized HTML of a Markdown text, in the browser (made on first use: the server has no window). */
export function renderMarkdown(source: string): string {
  inBrowser ??= markdownRenderer();
  return inBrowser(source);
}
