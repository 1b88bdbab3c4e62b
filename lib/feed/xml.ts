// Writing XML 1.0 text: escaped, and without the characters XML 1.0 cannot hold at all (C0
// controls but tab and line breaks, lone surrogates, U+FFFE and U+FFFF), which no escape allows.

// eslint-disable-next-line no-control-regex -- the control characters are what it removes
const FORBIDDEN = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;', '\r': '&#13;' };

/** Text or an attribute value as XML: escaped (a carriage return too, which parsers would fold), forbidden characters dropped. */
export function xmlText(value: string): string {
  return value.replace(FORBIDDEN, '').replace(/[&<>"'\r]/g, (char) => ESCAPES[char]!);
}

/** `<name attributes>text</name>`, the text and attribute values escaped. */
export function element(name: string, text: string, attributes: Record<string, string> = {}): string {
  const attrs = Object.entries(attributes)
    .map(([key, value]) => ` ${key}="${xmlText(value)}"`)
    .join('');
  return `<${name}${attrs}>${xmlText(text)}</${name}>`;
}
