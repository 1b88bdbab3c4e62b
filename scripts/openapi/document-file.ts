import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { openApiDocument } from '#lib/openapi/document.ts';

/** Writes the OpenAPI document as the code builds it (server: `serverUrl`) to a JSON file, for the tools that read files. */
export function writeOpenApiDocument(file: string, serverUrl?: string): string {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(serverUrl === undefined ? openApiDocument() : openApiDocument(serverUrl), null, 2)}\n`);
  return file;
}
