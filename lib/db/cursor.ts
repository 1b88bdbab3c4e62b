import { createCipheriv, createDecipheriv, createHash, createHmac } from 'node:crypto';
import { cursorSecret } from '#lib/config.ts';
import { InvalidPage } from '#lib/errors.ts';

// A list's cursor: the key of the last item of a page, carried by the `Link: rel="next"` URL so
// that following links costs the same on every page. The key is sealed (AES-256-GCM, with a key
// from configuration): a client reads no table key or internal id in it, and a cursor the service
// did not make, or made for another list (`binding`: the list's index, partition, filter and
// search words), fails authentication and is an invalid page.

const IV_BYTES = 12;
const TAG_BYTES = 16;

let keys: { secret: string; aes: Buffer; iv: Buffer } | undefined;

/** The AES key and the IV's key, derived from the configured secret once (once per cold start in Lambda). */
function sealingKeys(): { aes: Buffer; iv: Buffer } {
  const secret = cursorSecret();
  const derive = (purpose: string) => createHash('sha256').update(`community-posts cursor ${purpose}\u0000${secret}`).digest();
  if (keys?.secret !== secret) keys = { secret, aes: derive('aes'), iv: derive('iv') };
  return keys;
}

/**
 * Seals `key` for `binding`. The IV is a MAC of both (a synthetic IV): the same page of the same
 * list always gets the same cursor, so a HEAD's Link is its GET's, while two different keys never
 * share an IV.
 */
export function encodeCursor(key: Record<string, string>, binding = ''): string {
  const { aes, iv: ivKey } = sealingKeys();
  const text = JSON.stringify(key);
  const iv = createHmac('sha256', ivKey).update(binding).update('\u0000').update(text).digest().subarray(0, IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', aes, iv);
  cipher.setAAD(Buffer.from(binding, 'utf8'));
  const sealed = Buffer.concat([cipher.update(text, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, sealed, cipher.getAuthTag()]).toString('base64url');
}

/** The key sealed in `cursor` for `binding`; anything else (edited, forged, of another list) is an invalid page. */
function unseal(cursor: string, binding: string): unknown {
  const bytes = Buffer.from(cursor, 'base64url');
  if (bytes.length <= IV_BYTES + TAG_BYTES || bytes.toString('base64url') !== cursor) throw new InvalidPage();
  try {
    const decipher = createDecipheriv('aes-256-gcm', sealingKeys().aes, bytes.subarray(0, IV_BYTES));
    decipher.setAAD(Buffer.from(binding, 'utf8'));
    decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
    const text = Buffer.concat([decipher.update(bytes.subarray(IV_BYTES, bytes.length - TAG_BYTES)), decipher.final()]).toString('utf8');
    return JSON.parse(text);
  } catch {
    throw new InvalidPage();
  }
}

/**
 * Opens a cursor made for `binding` and checks it is a key of the expected shape (exactly
 * `attributes`, all short strings, in the expected partition): a cursor is never a malformed
 * request to DynamoDB.
 */
export function decodeCursor(cursor: string, attributes: string[], partition: { attribute: string; value: string }, binding = ''): Record<string, string> {
  const parsed = unseal(cursor, binding);
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new InvalidPage();
  const entries = Object.entries(parsed);
  const valid =
    entries.length === attributes.length &&
    entries.every(([name, value]) => attributes.includes(name) && typeof value === 'string' && value.length > 0 && Buffer.byteLength(value, 'utf8') <= 1024) &&
    (parsed as Record<string, string>)[partition.attribute] === partition.value;
  if (!valid) throw new InvalidPage();
  return parsed as Record<string, string>;
}
