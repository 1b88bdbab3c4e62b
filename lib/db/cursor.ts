import { InvalidPage } from '#lib/http/errors.ts';

// A list's cursor: the key of the last item of a page, carried by the `Link: rel="next"` URL so
// that following links costs the same on every page.

export function encodeCursor(key: Record<string, string>): string {
  return Buffer.from(JSON.stringify(key), 'utf8').toString('base64url');
}

/**
 * Decodes a cursor and checks it is a key of the expected shape (exactly `attributes`, all short
 * strings, in the expected partition). A forged or damaged cursor is an invalid page, never a
 * malformed request to DynamoDB.
 */
export function decodeCursor(
  cursor: string,
  attributes: string[],
  partition: { attribute: string; value: string },
): Record<string, string> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw new InvalidPage();
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new InvalidPage();
  const entries = Object.entries(parsed);
  const valid =
    entries.length === attributes.length &&
    entries.every(([name, value]) => attributes.includes(name) && typeof value === 'string' && value.length > 0 && Buffer.byteLength(value, 'utf8') <= 1024) &&
    (parsed as Record<string, string>)[partition.attribute] === partition.value;
  if (!valid) throw new InvalidPage();
  return parsed as Record<string, string>;
}
