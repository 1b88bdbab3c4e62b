/** What the local tools send to the API: a method, a token, and a form or JSON body. */
export interface ClientRequest {
  method?: string;
  token?: string;
  form?: Record<string, string>;
  json?: unknown;
  /** Other request headers (If-None-Match). */
  headers?: Record<string, string>;
}

/** The fetch options of a client request: the token header, and the body with its content type. */
export function fetchInit(request: ClientRequest): RequestInit {
  const headers: Record<string, string> = { ...request.headers };
  if (request.token) headers.Authorization = `Token ${request.token}`;
  let body: string | undefined;
  if (request.form) {
    headers['Content-Type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(request.form).toString();
  } else if (request.json !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(request.json);
  }
  return { method: request.method ?? 'GET', headers, ...(body ? { body } : {}) };
}
