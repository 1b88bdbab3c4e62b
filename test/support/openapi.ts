import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { openApiDocument } from '#lib/openapi/document.ts';
import { API_PREFIX, routingPath } from '#lib/routes.ts';

// Checks an HTTP response against the OpenAPI document (lib/openapi/document.ts): the status must
// be documented for the path and method, the Content-Type must be one the response lists, the
// body must match its schema, and required headers must be there and match theirs. Paths the
// document lacks, and methods a path lacks, are checked against the document's fallback
// responses (x-unmatched-path-responses, x-method-not-allowed-responses, x-preflight-responses);
// a preflight or other OPTIONS of a documented path, against the path's `options` operation.

type Json = Record<string, any>;

// ajv-formats is CommonJS with a default export; under NodeNext it arrives as the module object.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (ajv: Ajv2020) => Ajv2020;

const COMPONENTS_ID = 'urn:community-posts:openapi-components';

export interface ObservedResponse {
  method: string;
  url: string;
  status: number;
  headers: Headers;
  text: string;
}

export class OpenApiMismatch extends Error {
  override name = 'OpenApiMismatch';
}

/** `#/components/schemas/X` → a reference into the schema registered under COMPONENTS_ID. */
function retarget(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(retarget);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, inner]) => [
      key,
      key === '$ref' && typeof inner === 'string' && inner.startsWith('#/components/schemas/')
        ? `${COMPONENTS_ID}#/$defs/${inner.slice('#/components/schemas/'.length)}`
        : retarget(inner),
    ]),
  );
}

function pointer(path: string[]): string {
  return `#/${path.map((part) => part.replaceAll('~', '~0').replaceAll('/', '~1')).join('/')}`;
}

const mediaTypeOf = (value: string | null): string => (value ?? '').split(';')[0]!.trim().toLowerCase();

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

export class ResponseValidator {
  private readonly ajv: Ajv2020;
  private readonly compiled = new Map<string, ValidateFunction>();
  private readonly basePath: string;

  constructor(readonly document: Json = openApiDocument()) {
    this.ajv = new Ajv2020({ strict: true, allErrors: true, allowUnionTypes: true });
    addFormats(this.ajv);
    // OpenAPI's own keywords inside schemas (none used but allowed by 3.1).
    this.ajv.addKeyword({ keyword: 'example' });
    this.ajv.addSchema({ $id: COMPONENTS_ID, $defs: retarget(document.components?.schemas ?? {}) as Json });
    this.basePath = new URL(document.servers?.[0]?.url ?? API_PREFIX, 'http://host').pathname.replace(/\/$/, '');
  }

  /** Compiles every schema the document holds, so a broken one fails at once. */
  compileAll(): number {
    let count = 0;
    const visit = (node: unknown, path: string[]) => {
      if (node === null || typeof node !== 'object') return;
      for (const [key, value] of Object.entries(node)) {
        if (key === 'schema' && value && typeof value === 'object') {
          this.schemaAt([...path, key]);
          count++;
        } else visit(value, [...path, key]);
      }
    };
    visit(this.document.paths, ['paths']);
    visit(this.document.components?.responses, ['components', 'responses']);
    for (const name of Object.keys(this.document.components?.schemas ?? {})) {
      if (!this.ajv.getSchema(`${COMPONENTS_ID}#/$defs/${name}`)) throw new Error(`Schema ${name} does not compile`);
      count++;
    }
    return count;
  }

  private resolve(node: Json, seen = 0): Json {
    if (typeof node?.$ref !== 'string') return node;
    if (seen > 10) throw new Error(`$ref loop at ${node.$ref}`);
    const target = (node.$ref as string)
      .replace(/^#\//, '')
      .split('/')
      .map((part) => part.replaceAll('~1', '/').replaceAll('~0', '~'))
      .reduce<any>((at, part) => at?.[part], this.document);
    if (target === undefined) throw new Error(`Unresolved $ref ${node.$ref}`);
    return this.resolve(target, seen + 1);
  }

  private at(path: string[]): Json {
    let node: any = this.document;
    for (const part of path) node = this.resolve(node)?.[part];
    return node;
  }

  private schemaAt(path: string[]): ValidateFunction {
    const key = pointer(path);
    let validate = this.compiled.get(key);
    if (!validate) {
      const schema = this.at(path);
      if (!schema) throw new Error(`No schema at ${key}`);
      validate = this.ajv.compile(retarget(schema) as Json);
      this.compiled.set(key, validate);
    }
    return validate;
  }

  /** The path template of the document that matches a request path, and its parameters. */
  matchPath(requestPath: string): string | undefined {
    // Split as sent, then decoded: an encoded slash (%2F) stays inside its segment, as the gateway routes it.
    const got = requestPath.split('/').map((segment) => {
      try {
        return decodeURIComponent(segment);
      } catch {
        return segment;
      }
    });
    for (const template of Object.keys(this.document.paths ?? {})) {
      const want = template.split('/');
      if (want.length !== got.length) continue;
      if (want.every((segment, i) => (/^\{.+\}$/.test(segment) ? got[i] !== '' : segment === got[i]))) return template;
    }
    return undefined;
  }

  /** Throws OpenApiMismatch when the response is not what the document says. */
  check(response: ObservedResponse): void {
    const method = response.method.toLowerCase();
    const url = new URL(response.url);
    let fullPath: string;
    try {
      fullPath = decodeURIComponent(url.pathname);
    } catch {
      fullPath = url.pathname;
    }
    // The API's root, with or without its slash, is the document's `/` (the index).
    const sent = url.pathname;
    const rest = sent === this.basePath ? '/' : sent.startsWith(`${this.basePath}/`) ? sent.slice(this.basePath.length) : undefined;
    const template = rest === undefined ? undefined : this.matchPath(rest === '/' ? '/' : routingPath(rest));

    let where: string[];
    let label: string;
    // A preflight is answered by the gateway (204) on any path: a documented path's `options`
    // operation, or the extension for the others. Any other OPTIONS is an ordinary method.
    if (method === 'options' && response.status === 204 && !template) {
      where = ['x-preflight-responses'];
      label = `OPTIONS ${fullPath} (preflight)`;
    } else if (!template) {
      where = ['x-unmatched-path-responses'];
      label = `${method.toUpperCase()} ${fullPath} (not a documented path)`;
    } else if (!this.document.paths[template][method]) {
      where = ['x-method-not-allowed-responses'];
      label = `${method.toUpperCase()} ${template} (method not documented for the path)`;
    } else {
      where = ['paths', template, method, 'responses'];
      label = `${method.toUpperCase()} ${template} (${this.document.paths[template][method].operationId})`;
    }
    if (template && response.status === 405) {
      // The methods of the path's operations; `options` is the gateway's preflight, not a route.
      const documented = HTTP_METHODS.filter((m) => m !== 'options' && this.document.paths[template][m])
        .map((m) => m.toUpperCase())
        .sort();
      const allow = (response.headers.get('allow') ?? '')
        .split(',')
        .map((m) => m.trim())
        .filter(Boolean)
        .sort();
      if (allow.join(',') !== documented.join(',')) {
        this.fail(response, label, `Allow: ${allow.join(', ')} differs from the documented methods ${documented.join(', ')}`);
      }
    }

    const responses = this.resolve(this.at(where));
    const status = String(response.status);
    const key = [status, `${status[0]}XX`, 'default'].find((candidate) => responses[candidate] !== undefined);
    if (!key) this.fail(response, label, `status ${status} is not documented (documented: ${Object.keys(responses).join(', ')})`);
    const path = [...where, key];
    const documented = this.resolve(this.at(path));

    for (const [name, header] of Object.entries((documented.headers ?? {}) as Json)) {
      const spec = this.resolve(header as Json);
      const value = response.headers.get(name);
      if (value === null) {
        if (spec.required) this.fail(response, label, `required header ${name} is missing`);
        continue;
      }
      if (spec.schema) {
        const validate = this.schemaAt([...path, 'headers', name, 'schema']);
        if (!validate(value)) this.fail(response, label, `header ${name}: ${JSON.stringify(value)} ${this.ajv.errorsText(validate.errors)}`);
      }
    }

    const content = documented.content as Json | undefined;
    if (method === 'head') return;
    if (!content) {
      if (response.text !== '') this.fail(response, label, `a body was sent but the response documents none`);
      return;
    }
    const mediaType = mediaTypeOf(response.headers.get('content-type'));
    if (!(mediaType in content)) {
      this.fail(response, label, `Content-Type "${mediaType}" is not one of ${Object.keys(content).join(', ')}`);
    }
    if (mediaType !== 'application/json' && !mediaType.endsWith('+json')) return;
    let body: unknown;
    try {
      body = JSON.parse(response.text);
    } catch {
      this.fail(response, label, 'the body is not JSON');
    }
    const validate = this.schemaAt([...path, 'content', mediaType, 'schema']);
    if (!validate(body)) this.fail(response, label, this.ajv.errorsText(validate.errors, { dataVar: 'body' }));
  }

  private fail(response: ObservedResponse, label: string, problem: string): never {
    const text = response.text.length > 600 ? `${response.text.slice(0, 600)}…` : response.text;
    throw new OpenApiMismatch(
      `Response does not match the OpenAPI document (lib/openapi/document.ts): ${label} → ${response.status}: ${problem}\n` +
        `  request: ${response.method.toUpperCase()} ${response.url}\n  body: ${text || '(empty)'}`,
    );
  }
}

let shared: ResponseValidator | undefined;

/** The validator of the document as the code builds it (one per test file). */
export function responseValidator(): ResponseValidator {
  shared ??= new ResponseValidator();
  return shared;
}

/**
 * Checks request inputs against the document's request schemas, as a validating proxy or client
 * generator reads them: a body by its media type (a form's fields are strings), a parameter's raw
 * text coerced to the schema's types (`"20"` is an integer, `"true"` a boolean).
 */
export class RequestValidator {
  private readonly bodies: Ajv2020;
  private readonly parameters: Ajv2020;

  constructor(readonly document: Json = openApiDocument()) {
    const make = (coerceTypes: boolean) => {
      const ajv = new Ajv2020({ strict: true, allErrors: true, allowUnionTypes: true, coerceTypes });
      addFormats(ajv);
      ajv.addSchema({ $id: COMPONENTS_ID, $defs: retarget(document.components?.schemas ?? {}) as Json });
      return ajv;
    };
    this.bodies = make(false);
    this.parameters = make(true);
  }

  private operation(path: string, method: string): Json {
    const op = this.document.paths?.[path]?.[method];
    if (!op) throw new Error(`No operation ${method.toUpperCase()} ${path}`);
    return op;
  }

  /** The problems of a request body, or null when the document accepts it. */
  body(path: string, method: string, mediaType: string, value: unknown): string | null {
    const schema = this.operation(path, method).requestBody?.content?.[mediaType]?.schema;
    if (!schema) return `${method.toUpperCase()} ${path} documents no ${mediaType} body`;
    const validate = this.bodies.compile(retarget(schema) as Json);
    return validate(value) ? null : this.bodies.errorsText(validate.errors, { dataVar: 'body' });
  }

  /** The problems of a parameter's raw value, or null when the document accepts it. */
  parameter(path: string, method: string, name: string, raw: string): string | null {
    const parameter = ((this.operation(path, method).parameters ?? []) as Json[]).find((p) => p.name === name);
    if (!parameter) return `${method.toUpperCase()} ${path} has no parameter ${name}`;
    const validate = this.parameters.compile({ type: 'object', properties: { [name]: retarget(parameter.schema) as Json } });
    return validate({ [name]: raw }) ? null : this.parameters.errorsText(validate.errors, { dataVar: name });
  }
}
