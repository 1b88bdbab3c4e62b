import { openApiDocument } from '#lib/openapi/document.ts';
import { API_PREFIX } from '#lib/routes.ts';

// The answer of GET /api/v1, the URL `npm start` prints and a newcomer opens first: where the docs
// page and the OpenAPI document are, and every endpoint with its summary (taken from the OpenAPI
// document, so the index lists exactly what the document describes).

export interface ApiIndex {
  name: string;
  version: string;
  docs: string;
  openapi: string;
  endpoints: { method: string; path: string; summary: string; token: boolean }[];
}

const METHODS = ['get', 'post', 'put', 'delete'] as const;

interface Operation {
  summary: string;
  security?: unknown[];
}

/**
 * The index for an API whose base URL (`https://host/api/v1`) is `serverUrl`; endpoint paths are
 * the API's own, whatever Host header the request carried.
 */
export function apiIndex(serverUrl: string): ApiIndex {
  const document = openApiDocument(serverUrl) as { info: { title: string; version: string }; paths: Record<string, Partial<Record<string, Operation>>> };
  const endpoints = Object.entries(document.paths).flatMap(([path, item]) =>
    METHODS.flatMap((method) => {
      const operation = item[method];
      if (!operation) return [];
      // A public operation's security is the empty list; the others use the document's default (the
      // token), or, public reads, allow a token or none: a token unless the deployment has public reads on.
      const token = !(Array.isArray(operation.security) && operation.security.length === 0);
      return [{ method: method.toUpperCase(), path: `${API_PREFIX}${path === '/' ? '' : path}`, summary: operation.summary, token }];
    }),
  );
  return {
    name: document.info.title,
    version: document.info.version,
    docs: `${serverUrl}/docs`,
    openapi: `${serverUrl}/openapi.json`,
    endpoints,
  };
}
