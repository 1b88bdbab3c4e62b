import { createHash } from 'node:crypto';
import { readFileSync, realpathSync, statSync, type Stats } from 'node:fs';
import { extname, join, resolve, sep } from 'node:path';
import { brotliCompressSync, gzipSync, constants as zlib } from 'node:zlib';
import { noneMatch } from '#lib/http/conditional.ts';
import { siteHeaders } from '#lib/site/headers.ts';

// The site as the local server serves it beside the API, the way CloudFront serves it: outside
// /api/, GET and HEAD of a file of the build (but index.html and robots.txt) answer the file, as
// from the bucket; every other path is the page function's (scripts/local/server.ts), whose answer
// gets what CloudFront adds (pageAnswer()). Never a directory listing, never a file outside the
// site's folder. Every answer carries the site's headers (lib/site/headers.ts: security, and with
// public reads off X-Robots-Tag: noindex); hashed
// files under /assets/ are cached for a year, the build's other files are revalidated (no-cache).

export interface SiteAnswer {
  status: number;
  headers: Record<string, string>;
  /** The body to send (none for HEAD and 304). */
  body?: Buffer;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.map': 'application/json',
  '.webmanifest': 'application/manifest+json',
  '.txt': 'text/plain; charset=utf-8',
  '.xml': 'application/xml',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
};

/** Types worth compressing (CloudFront compresses these too). */
const COMPRESSIBLE = new Set(['.html', '.js', '.mjs', '.css', '.json', '.map', '.webmanifest', '.txt', '.xml', '.svg', '.ico']);

export const IMMUTABLE = 'public, max-age=31536000, immutable';
export const REVALIDATE = 'no-cache';

/** Whether a path (as sent) belongs to the API rather than to the site. */
export function isApiPath(path: string): boolean {
  return path === '/api' || path.startsWith('/api/');
}

/**
 * The file under `root` a URL path names, or undefined: a path that does not decode, holds a NUL,
 * a `..` or dot segment, leads outside `root` (a link included), or names no regular file.
 */
function fileOf(root: string, rawPath: string): { file: string; stats: Stats } | undefined {
  let path: string;
  try {
    path = decodeURIComponent(rawPath);
  } catch {
    return undefined;
  }
  if (path.includes('\0') || path.includes('\\')) return undefined;
  const segments = path.split('/').filter((segment) => segment !== '');
  if (segments.some((segment) => segment.startsWith('.'))) return undefined;
  const file = resolve(root, ...segments);
  if (!file.startsWith(root + sep)) return undefined;
  try {
    const real = realpathSync(file);
    if (!real.startsWith(root + sep)) return undefined;
    const stats = statSync(real);
    return stats.isFile() ? { file: real, stats } : undefined;
  } catch {
    return undefined;
  }
}

/** The build's files the page function answers instead (its template, and the robots.txt it generates). */
const PAGE_FUNCTION_FILES = new Set(['index.html', 'robots.txt']);

/** Whether a path (as sent) names a file of the build that the bucket serves: not index.html nor robots.txt. */
export function isBuildFile(root: string, path: string): boolean {
  const base = resolve(root);
  const found = fileOf(base, path);
  return found !== undefined && !PAGE_FUNCTION_FILES.has(found.file.slice(base.length + 1));
}

type Encoding = 'br' | 'gzip';

/** The encoding to send: brotli, else gzip, when the client accepts it (q=0 refuses). */
function encodingFor(acceptEncoding: string | undefined): Encoding | undefined {
  const accepted = new Map<string, number>();
  for (const part of (acceptEncoding ?? '').split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find(Boolean);
    accepted.set(name, q === undefined ? 1 : Number(q));
  }
  const ok = (name: string) => (accepted.get(name) ?? accepted.get('*') ?? 0) > 0;
  if (ok('br')) return 'br';
  if (ok('gzip')) return 'gzip';
  return undefined;
}

/** Files as read (and compressed), by path, size and time: the site's files change only on a build. */
const cache = new Map<string, { key: string; raw: Buffer; tag: string; encoded: Partial<Record<Encoding, Buffer>> }>();

function contentOf(file: string, stats: Stats) {
  const key = `${stats.size}:${stats.mtimeMs}`;
  let entry = cache.get(file);
  if (!entry || entry.key !== key) {
    const raw = readFileSync(file);
    entry = { key, raw, tag: createHash('sha256').update(raw).digest('base64url').slice(0, 27), encoded: {} };
    cache.set(file, entry);
  }
  return entry;
}

function encode(raw: Buffer, encoding: Encoding): Buffer {
  return encoding === 'br'
    ? brotliCompressSync(raw, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11, [zlib.BROTLI_PARAM_SIZE_HINT]: raw.length } })
    : gzipSync(raw, { level: 9 });
}

/** Whether If-None-Match names `tag` (compared weakly, `*` matching any), as the API compares it. */
function matches(ifNoneMatch: string | undefined, tag: string): boolean {
  return ifNoneMatch !== undefined && noneMatch(ifNoneMatch, tag);
}

/** The page answers' types CloudFront compresses (text, XML, JSON, JavaScript). */
const COMPRESSIBLE_TYPE = /^(text\/|application\/(xml|json|javascript|rss\+xml|xhtml\+xml)|image\/svg\+xml)/i;

/** CloudFront compresses answers from 1,000 to 10,000,000 bytes. */
const COMPRESSIBLE_SIZE = { min: 1_000, max: 10_000_000 };

/** What the page function answered (scripts/local/server.ts functionAnswer()). */
export interface FunctionPage {
  status: number;
  headers: Record<string, string | string[]>;
  body?: Buffer;
}

/**
 * The page function's answer as the distribution hands it on: the site's headers (lib/site/headers.ts)
 * over the function's; 304 without a body for a 200 whose ETag the request's If-None-Match names (the
 * function may answer 304 itself); its text compressed with br or gzip as the client accepts
 * (`vary: Accept-Encoding`). HEAD: the headers of GET, no body.
 */
export function pageAnswer(answer: FunctionPage, request: Omit<SiteRequest, 'path'>): SiteAnswer {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(answer.headers)) headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  Object.assign(headers, siteHeaders(request.publicReads));
  delete headers['content-length'];
  const tag = headers.etag;
  if (answer.status === 304 || (answer.status === 200 && tag !== undefined && matches(request.ifNoneMatch, tag))) {
    delete headers['content-type'];
    delete headers['content-encoding'];
    return { status: 304, headers };
  }
  let body = answer.body ?? Buffer.alloc(0);
  const compressible = COMPRESSIBLE_TYPE.test(headers['content-type'] ?? '') && headers['content-encoding'] === undefined;
  if (compressible) {
    headers.vary = headers.vary ? `${headers.vary}, Accept-Encoding` : 'Accept-Encoding';
    const encoding = encodingFor(request.acceptEncoding);
    if (encoding && body.length >= COMPRESSIBLE_SIZE.min && body.length <= COMPRESSIBLE_SIZE.max) {
      body = encode(body, encoding);
      headers['content-encoding'] = encoding;
      // CloudFront makes a strong ETag weak when it compresses (the bytes differ).
      if (tag && !tag.startsWith('W/')) headers.etag = `W/${tag}`;
    }
  }
  headers['content-length'] = String(body.length);
  return { status: answer.status, headers, ...(request.method === 'HEAD' ? {} : { body }) };
}

export interface SiteRequest {
  method: string;
  /** The path as sent, still URL-encoded, without the query. */
  path: string;
  acceptEncoding?: string;
  ifNoneMatch?: string;
  /** The site's public reads: off, every answer gets `X-Robots-Tag: noindex`, as CloudFront's headers policy adds it. */
  publicReads: boolean;
}

/** The answer to a GET or HEAD of the site's `path`; `root` is the built site (web/dist). */
export function siteAnswer(root: string, request: SiteRequest): SiteAnswer {
  const base = resolve(root);
  const found = fileOf(base, request.path);
  const index = join(base, 'index.html');
  const target = found ?? { file: index, stats: statSync(index) };
  const extension = extname(target.file).toLowerCase();
  const immutable = found !== undefined && request.path.startsWith('/assets/');
  const content = contentOf(target.file, target.stats);
  const encoding = COMPRESSIBLE.has(extension) ? encodingFor(request.acceptEncoding) : undefined;
  const tag = `"${content.tag}${encoding ? `-${encoding}` : ''}"`;
  const headers: Record<string, string> = {
    ...siteHeaders(request.publicReads),
    'content-type': TYPES[extension] ?? 'application/octet-stream',
    'cache-control': immutable ? IMMUTABLE : REVALIDATE,
    etag: tag,
    'last-modified': target.stats.mtime.toUTCString(),
    ...(COMPRESSIBLE.has(extension) ? { vary: 'Accept-Encoding' } : {}),
  };
  if (matches(request.ifNoneMatch, tag)) {
    delete headers['content-type'];
    return { status: 304, headers };
  }
  let body = content.raw;
  if (encoding) {
    body = content.encoded[encoding] ??= encode(content.raw, encoding);
    headers['content-encoding'] = encoding;
  }
  headers['content-length'] = String(body.length);
  return { status: 200, headers, ...(request.method === 'HEAD' ? {} : { body }) };
}
