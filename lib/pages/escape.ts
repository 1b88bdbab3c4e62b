// Text as it goes into a page: what no page may carry is dropped (NUL and the other C0 controls
// but tab, line feed and carriage return; lone surrogates), then it is escaped for where it goes.

// eslint-disable-next-line no-control-regex
const UNWANTED = /[\u0000-\u0008\u000b\u000c\u000e-\u001f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** Text without the characters a page never carries. */
export function clean(text: string): string {
  return text.replace(UNWANTED, '');
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text for an HTML element's content or a quoted attribute value. */
export function html(text: string): string {
  return clean(text).replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!);
}

/**
 * JSON for a `<script>` data block: `<`, `>`, `&`, U+2028 and U+2029 as `\u` escapes, so no text
 * can close the element or start a comment, whatever the values hold.
 */
export function jsonBlock(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) => (typeof item === 'string' ? clean(item) : item)).replace(
    /[<>&\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
