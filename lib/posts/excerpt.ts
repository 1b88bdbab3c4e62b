import MarkdownIt from 'markdown-it';
import { EXCERPT_LENGTH, WORDS_PER_MINUTE } from './limits.ts';

// What a summary shows of a post (docs/api.md, "Summaries"): its excerpt, the source text made
// plain and cut, and its reading time. Pure functions of the text, computed when the text is
// written (summary.ts) so that a list of summaries never reads a description.

// GitHub's tables and raw HTML recognised as such, so that their markup is what gets dropped.
const markdown = new MarkdownIt({ html: true, linkify: false });
const { unescapeAll } = markdown.utils;

type Token = ReturnType<typeof markdown.parse>[number];

/** Elements whose content is no text: dropped with their tags. */
const HIDDEN_ELEMENT = /<(script|style)\b[^>]*>[\s\S]*?(<\/\1\s*>|$)/gi;
const COMMENT = /<!--[\s\S]*?(-->|$)/g;
const TAG = /<\/?[A-Za-z][^>]*>|<![^>]*>|<\?[\s\S]*?\?>/g;

/** The text of raw HTML: comments, tags and the content of script and style elements dropped, character references decoded. */
function htmlText(html: string): string {
  return unescapeAll(html.replace(HIDDEN_ELEMENT, ' ').replace(COMMENT, ' ').replace(TAG, ' '));
}

const OPENS_HIDDEN = /^<(script|style)\b/i;

/** The text of one inline token's children; raw HTML within them as htmlText does, across tokens. */
function inlineText(children: Token[]): string {
  let text = '';
  let hiddenUntil: RegExp | undefined;
  for (const child of children) {
    if (hiddenUntil) {
      if (child.type === 'html_inline' && hiddenUntil.test(child.content)) hiddenUntil = undefined;
      continue;
    }
    if (child.type === 'text' || child.type === 'code_inline') text += child.content;
    else if (child.type === 'image') text += inlineText(child.children ?? []);
    else if (child.type === 'softbreak' || child.type === 'hardbreak') text += ' ';
    else if (child.type === 'html_inline') {
      const opened = OPENS_HIDDEN.exec(child.content);
      if (opened && !new RegExp(`</${opened[1]}\\s*>`, 'i').test(child.content)) hiddenUntil = new RegExp(`^</${opened[1]}\\s*>`, 'i');
      text += ` ${htmlText(child.content)} `;
    }
  }
  return text;
}

/**
 * Markdown as plain text: headings, emphasis, list and quote marks removed; links and images keep
 * their text; inline code its text; fenced and indented code blocks dropped; HTML tags dropped
 * (script and style with their content); character references decoded; runs of whitespace as one
 * space, trimmed.
 */
export function plainText(source: string): string {
  const parts: string[] = [];
  for (const token of markdown.parse(source, {})) {
    if (token.type === 'inline') parts.push(inlineText(token.children ?? []));
    else if (token.type === 'html_block') parts.push(htmlText(token.content));
  }
  return parts.join(' ').replace(/\s+/gu, ' ').trim();
}

/** Text cut to EXCERPT_LENGTH code points at its last whitespace there (at the limit when none), trimmed, with `…`. */
export function cutText(text: string): string {
  const points = [...text];
  if (points.length <= EXCERPT_LENGTH) return text;
  const head = points.slice(0, EXCERPT_LENGTH).join('');
  const lastSpace = head.search(/\s\S*$/u);
  return `${(lastSpace > 0 ? head.slice(0, lastSpace) : head).trim()}…`;
}

/** A post's excerpt: its meta description when that holds more than whitespace, else its description, made plain and cut. */
export function excerptOf(post: { description: string; meta_description: string | null }): string {
  const source = post.meta_description !== null && post.meta_description.trim() !== '' ? post.meta_description : post.description;
  return cutText(plainText(source));
}

/** Minutes to read the description as written: its words (runs of Unicode letters and digits) / WORDS_PER_MINUTE, rounded up, at least 1. */
export function readingTimeMinutes(description: string): number {
  const words = description.match(/[\p{L}\p{N}]+/gu)?.length ?? 0;
  return Math.max(1, Math.ceil(words / WORDS_PER_MINUTE));
}
