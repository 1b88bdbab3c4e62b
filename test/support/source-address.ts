import { request } from 'node:http';
import type { ApiResponse } from './api.ts';
import { responseValidator } from './openapi.ts';

// Requests sent from another loopback address (127.0.0.x): the local gateway takes the source
// address of a request from its connection, as API Gateway does (scripts/local/server.ts), so a
// test varies it the way a client on another machine would, by binding the connection's local
// end, never with a header. Responses are checked against the OpenAPI document like ApiClient's.

export interface SourceRequest {
  json?: unknown;
  token?: string;
}

export function sendFrom<T = any>(address: string, method: string, url: string, options: SourceRequest = {}): Promise<ApiResponse<T>> {
  const body = options.json === undefined ? undefined : JSON.stringify(options.json);
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (options.token) headers.Authorization = `Token ${options.token}`;
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers, localAddress: address }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        const responseHeaders = new Headers();
        for (const [name, value] of Object.entries(res.headers)) {
          if (value !== undefined) responseHeaders.set(name, Array.isArray(value) ? value.join(', ') : value);
        }
        const status = res.statusCode ?? 0;
        responseValidator().check({ method, url, status, headers: responseHeaders, text });
        let parsed: unknown = null;
        try {
          parsed = text ? JSON.parse(text) : null;
        } catch {
          parsed = null;
        }
        resolve({ status, headers: responseHeaders, body: parsed as T, text });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** A client bound to one source address: POST /login and POST /users from there. */
export function fromAddress(baseUrl: string, address: string) {
  return {
    login: (username: string, password: string) => sendFrom(address, 'POST', `${baseUrl}/login`, { json: { username, password } }),
    signUp: (json: unknown) => sendFrom(address, 'POST', `${baseUrl}/users`, { json }),
  };
}
