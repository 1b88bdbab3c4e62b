import { Agent, request as httpRequest } from 'node:http';

// A bare HTTP client for tests that must send what fetch refuses to: a body on GET, paths with
// malformed percent escapes, any content type or none, raw bytes.

export interface RawRequest {
  method: string;
  /** Path and query as they go on the request line (not normalized). */
  path: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
}

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

// A connection per request, 64 at most at once: no request is sent on a kept connection the
// server may be closing at that moment. With kept connections one request of a CI run failed with
// "socket hang up" (security/limits, on a loaded machine); a new loopback connection costs
// next to nothing.
const agent = new Agent({ keepAlive: false, maxSockets: 64 });

/** Sends one request to `origin` (e.g. http://127.0.0.1:1234). */
export function rawRequest(origin: string, req: RawRequest): Promise<RawResponse> {
  const url = new URL(origin);
  return new Promise((done, fail) => {
    const headers: Record<string, string | number> = { ...req.headers };
    if (req.body !== undefined) headers['Content-Length'] = Buffer.byteLength(req.body);
    const outgoing = httpRequest({ host: url.hostname, port: url.port, method: req.method, path: req.path, headers, agent }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => done({ status: response.statusCode ?? 0, headers: response.headers, text: Buffer.concat(chunks).toString('utf8') }));
      response.on('error', fail);
    });
    outgoing.on('error', fail);
    if (req.body !== undefined) outgoing.write(req.body);
    outgoing.end();
  });
}

/** Problems with a response against the contract's shape; [] when it is well-formed. */
export function shapeProblems(response: RawResponse): string[] {
  const problems: string[] = [];
  if (response.status >= 500) problems.push(`status ${response.status}`);
  if (response.status === 204) {
    if (response.text !== '') problems.push('204 with a body');
    return problems;
  }
  const type = String(response.headers['content-type'] ?? '');
  if (!/^application\/json(;|$)/.test(type)) problems.push(`content-type ${JSON.stringify(type)}`);
  let body: unknown;
  try {
    body = JSON.parse(response.text);
  } catch {
    problems.push(`not JSON: ${response.text.slice(0, 200)}`);
    return problems;
  }
  if (response.status >= 400) problems.push(...drfProblems(body));
  else if (typeof body !== 'object' || body === null) problems.push('success body is not an object or array');
  if (response.status === 401 && response.headers['www-authenticate'] !== 'Token') problems.push('401 without WWW-Authenticate: Token');
  if (response.status === 405 && !response.headers.allow) problems.push('405 without Allow');
  if (response.status === 503 && !/^\d+$/.test(String(response.headers['retry-after'] ?? ''))) problems.push('503 without Retry-After');
  return problems;
}

/** An error body of the DRF shape: {"detail": "..."} or {"field": ["message", ...], ...}. */
export function drfProblems(body: unknown): string[] {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return [`error body is not an object: ${JSON.stringify(body)}`];
  const entries = Object.entries(body);
  if (entries.length === 0) return ['empty error body'];
  if ('detail' in body) {
    return entries.length === 1 && typeof (body as { detail: unknown }).detail === 'string' ? [] : [`detail body with other keys: ${JSON.stringify(body)}`];
  }
  const bad = entries.filter(([, messages]) => !Array.isArray(messages) || messages.length === 0 || !messages.every((m) => typeof m === 'string'));
  return bad.length ? [`field errors not lists of strings: ${JSON.stringify(body)}`] : [];
}
