import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DOCS_ASSETS, SWAGGER_UI_FILES, swaggerUiDistDirectory } from '#lib/docs/swagger-ui.ts';
import { openApiDocument, openApiPath } from '#lib/openapi/document.ts';
import { PAGE_SIZES } from '#lib/http/paging.ts';
import { POST_LIMITS } from '#lib/posts/limits.ts';
import { API_PREFIX, ROUTES, routeMethods } from '#lib/routes.ts';
import { TAG_TITLE_MAX_LENGTH } from '#lib/tags/tag.ts';
import { PROFILE_SPECS } from '#lib/users/profile.ts';
import { useApi } from '../support/fixture.ts';
import { OpenApiMismatch, ResponseValidator } from '../support/openapi.ts';

// The OpenAPI document (lib/openapi/document.ts): complete for the route table, internally
// consistent, its limits those the code enforces, and served as built. That every response of the
// integration suite matches it is checked by test/support/api.ts on each request.

type Json = Record<string, any>;
const document = openApiDocument() as Json;
const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'];

function operations(doc: Json = document): [string, string, Json][] {
  return Object.entries(doc.paths as Json).flatMap(([path, item]) =>
    METHODS.filter((method) => item[method]).map((method): [string, string, Json] => [path, method, item[method]]),
  );
}

function resolve(node: Json): Json {
  if (typeof node?.$ref !== 'string') return node;
  const target = (node.$ref as string)
    .slice(2)
    .split('/')
    .map((part) => part.replaceAll('~1', '/').replaceAll('~0', '~'))
    .reduce<any>((at, part) => at?.[part], document);
  return resolve(target);
}

describe('the document', () => {
  it('is OpenAPI 3.1 with a server under /api/v1 and the Token security scheme', () => {
    expect(document.openapi).toBe('3.1.0');
    expect(document.servers[0].url).toBe(API_PREFIX);
    expect(document.components.securitySchemes.tokenAuth).toEqual(expect.objectContaining({ type: 'apiKey', in: 'header', name: 'Authorization' }));
    expect(document.security).toEqual([{ tokenAuth: [] }]);
  });

  it('has an operation for every route of lib/routes.ts, and no other', () => {
    const documented = operations().map(([path, method]) => `${method.toUpperCase()} ${path}`);
    const routed = ROUTES.flatMap((route) => routeMethods(route).map((method) => `${method} ${openApiPath(route)}`));
    expect(documented.sort()).toEqual(routed.sort());
  });

  it('gives every operation a unique id, a tag, a summary and its responses', () => {
    const ids = operations().map(([, , op]) => op.operationId as string);
    expect(new Set(ids).size).toBe(ids.length);
    const tagNames = (document.tags as { name: string }[]).map((tag) => tag.name);
    for (const [path, method, op] of operations()) {
      const label = `${method} ${path}`;
      expect(op.summary, label).toBeTruthy();
      expect(op.tags, label).toHaveLength(1);
      expect(tagNames, label).toContain(op.tags[0]);
      const statuses = Object.keys(op.responses);
      expect(statuses.some((status) => /^2/.test(status)), label).toBe(true);
      for (const status of ['429', '500']) expect(statuses, label).toContain(status);
    }
  });

  it('asks for the token exactly where the route needs one', () => {
    for (const route of ROUTES) {
      const op = document.paths[openApiPath(route)][route.method.toLowerCase()];
      const label = `${route.method} ${route.path}`;
      if (route.public) {
        expect(op.security, label).toEqual([]);
        expect(op.responses['401'], label).toBeUndefined();
      } else {
        expect(op.security, label).toBeUndefined(); // the document's default: tokenAuth
        expect(op.responses['401'], label).toBeDefined();
      }
    }
  });

  it('declares every path parameter', () => {
    for (const [path, method, op] of operations()) {
      const names = [...path.matchAll(/\{(\w+)\}/g)].map(([, name]) => name);
      const declared = ((op.parameters ?? []) as Json[]).filter((p) => p.in === 'path').map((p) => p.name);
      expect(declared.sort(), `${method} ${path}`).toEqual(names.sort());
      for (const parameter of (op.parameters ?? []) as Json[]) if (parameter.in === 'path') expect(parameter.required).toBe(true);
    }
  });

  it('documents every request body in both encodings', () => {
    const withBody = operations().filter(([, , op]) => op.requestBody);
    expect(withBody.map(([path, method]) => `${method} ${path}`).sort()).toEqual(
      [
        ...['post /login', 'put /users/detail/{username}', 'post /tags', 'post /posts', 'put /posts/detail/{slug}'],
        ...['post /users', 'post /users/detail/{username}/password', 'post /posts/detail/{slug}/vote'],
      ].sort(),
    );
    for (const [path, method, op] of withBody) {
      expect(Object.keys(op.requestBody.content).sort(), `${method} ${path}`).toEqual(['application/json', 'application/x-www-form-urlencoded']);
    }
  });

  it('gives the three other post lists the parameters and answers of GET /posts', () => {
    const posts = document.paths['/posts'].get;
    const names = (op: Json) => (op.parameters as Json[]).map((p) => `${p.in}:${p.name}`).sort();
    for (const [path, extra] of [
      ['/posts/tagged/{slug}', ['path:slug']],
      ['/posts/author/{username}', ['path:username']],
      ['/posts/me', ['query:publish']],
    ] as const) {
      const op = document.paths[path].get;
      expect(names(op), path).toEqual([...names(posts), ...extra].sort());
      for (const parameter of posts.parameters as Json[]) {
        expect((op.parameters as Json[]).find((p) => p.name === parameter.name), `${path} ${parameter.name}`).toEqual(parameter);
      }
      expect(op.responses['200'], path).toEqual(expect.objectContaining({ headers: posts.responses['200'].headers }));
      expect(resolve(op.responses['200']).content['application/json'].schema, path).toEqual(posts.responses['200'].content['application/json'].schema);
      expect(op.responses['401'], path).toBeDefined();
      expect(document.paths[path].head, path).toBeDefined();
      const notFound = resolve(op.responses['404']).content['application/json'].schema.properties.detail.enum;
      expect(notFound, path).toContain('Invalid page.');
      expect(notFound.includes('Not found.'), path).toBe(path !== '/posts/me');
    }
    const publish = (document.paths['/posts/me'].get.parameters as Json[]).find((p) => p.name === 'publish')!;
    expect(publish).toEqual(expect.objectContaining({ in: 'query', schema: { type: 'boolean' } }));
    expect(publish.description).toContain('Must be a valid boolean.');
    expect(Object.keys(resolve(document.paths['/posts/me'].get.responses['400']).content['application/json'].schema.anyOf[0].properties)).toContain('publish');
  });

  it("says that a deactivated user's profile is still answered", () => {
    expect(document.paths['/users/detail/{username}'].get.description).toMatch(/deactivated/);
    expect(document.paths['/users/detail/{username}'].get.responses['200']).toBeDefined();
  });

  it('resolves every $ref', () => {
    const refs: string[] = [];
    const walk = (node: unknown) => {
      if (node === null || typeof node !== 'object') return;
      for (const [key, value] of Object.entries(node)) {
        if (key === '$ref') refs.push(value as string);
        else walk(value);
      }
    };
    walk(document);
    expect(refs.length).toBeGreaterThan(50);
    for (const ref of refs) expect(resolve({ $ref: ref }), ref).toBeDefined();
  });

  it('compiles every schema with ajv in strict mode (JSON Schema 2020-12)', () => {
    expect(new ResponseValidator(document).compileAll()).toBeGreaterThan(100);
  });

  it('has examples that match their own schemas', () => {
    const validator = new ResponseValidator(document);
    let checked = 0;
    for (const [path, method, op] of operations()) {
      for (const [status, response] of Object.entries(op.responses as Json)) {
        const resolved = resolve(response as Json);
        for (const [mediaType, media] of Object.entries((resolved.content ?? {}) as Json)) {
          if (media.example === undefined) continue;
          const headers = new Headers({ 'content-type': mediaType });
          for (const [name, header] of Object.entries((resolved.headers ?? {}) as Json)) {
            if (resolve(header).required) headers.set(name, name === 'WWW-Authenticate' ? 'Token' : name === 'Allow' ? 'GET' : '1');
          }
          const url = `http://127.0.0.1${API_PREFIX}${path.replace(/\{(\w+)\}/g, (_, name: string) => (name === 'asset' ? 'init.js' : 'x'))}`;
          validator.check({ method, url, status: Number(status), headers, text: JSON.stringify(media.example) });
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(40);
  });

  it('takes its limits from the code that enforces them', () => {
    const schemas = document.components.schemas;
    expect(schemas.Post.properties.title.maxLength).toBe(POST_LIMITS.title);
    expect(schemas.Post.properties.description.maxLength).toBe(POST_LIMITS.description);
    expect(schemas.Post.properties.keywords.maxLength).toBe(POST_LIMITS.keywords);
    expect(schemas.Post.properties.meta_description.maxLength).toBe(POST_LIMITS.meta_description);
    expect(schemas.Post.properties.tags.maxItems).toBe(POST_LIMITS.tags);
    expect(schemas.PostCreate.properties.title.maxLength).toBe(POST_LIMITS.title);
    expect(schemas.Tag.properties.title.maxLength).toBe(TAG_TITLE_MAX_LENGTH);
    expect(schemas.TagCreate.properties.title.maxLength).toBe(TAG_TITLE_MAX_LENGTH);
    for (const [field, spec] of Object.entries(PROFILE_SPECS)) {
      expect(Object.keys(schemas.Profile.properties), field).toContain(field);
      const max = 'maxLength' in spec ? spec.maxLength : undefined;
      expect(schemas.ProfileUpdate.properties[field].maxLength, field).toBe(max);
      expect(schemas.ProfileUpdateForm.properties[field].maxLength, field).toBe(max);
    }
    for (const [path, list] of [
      ['/users', 'users'],
      ['/tags', 'tags'],
      ['/posts', 'posts'],
      ['/posts/tagged/{slug}', 'posts'],
      ['/posts/author/{username}', 'posts'],
      ['/posts/me', 'posts'],
    ] as const) {
      const pageSize = (document.paths[path].get.parameters as Json[]).find((p) => p.name === 'page_size')!;
      expect(pageSize.schema.maximum, path).toBe(PAGE_SIZES[list]);
    }
    // The texts say the same numbers as the schemas (written with thousands separators).
    const thousands = (n: number) => n.toLocaleString('en-US');
    expect(schemas.PostCreate.properties.description.maxLength).toBe(POST_LIMITS.description);
    expect(schemas.PostCreate.properties.description.description).toContain(`${thousands(POST_LIMITS.description)} characters`);
    expect(schemas.PostCreate.properties.description.description).toContain(`${thousands(POST_LIMITS.descriptionBytes)} bytes`);
    for (const name of ['PostCreate', 'PostCreateForm', 'PostUpdate', 'PostUpdateForm']) {
      expect(schemas[name].properties.keywords.maxLength, name).toBe(POST_LIMITS.keywords);
      expect(schemas[name].properties.meta_description.maxLength, name).toBe(POST_LIMITS.meta_description);
      expect(schemas[name].properties.tags.description, name).toContain(`at most ${POST_LIMITS.tags} `);
    }
    const asset = (document.paths['/docs/{asset}'].get.parameters as Json[]).find((p) => p.name === 'asset')!;
    expect([...asset.schema.enum].sort()).toEqual(Object.keys(DOCS_ASSETS).sort());
  });
});

describe('the response validator', () => {
  const validator = new ResponseValidator(document);
  const post = {
    author: 'alice', title: 'Hello', slug: 'hello', description: 'x', created: '2026-01-05T14:12:15.258987+00:00',
    modified: '2026-01-05T14:12:15.258987+00:00', publish: true, is_featured: false, tags: [], keywords: null,
    meta_description: null, rating_likes: 0, rating_dislikes: 0, total_visitors: 0, total_favorites: 0,
  };
  const json = (extra: Record<string, string> = {}) => new Headers({ 'content-type': 'application/json', ...extra });
  const check = (method: string, path: string, status: number, body: unknown, headers = json()) =>
    validator.check({ method, url: `http://127.0.0.1:3000${API_PREFIX}${path}`, status, headers, text: body === undefined ? '' : JSON.stringify(body) });

  it('accepts what the document describes', () => {
    check('GET', '/posts/detail/hello', 200, post);
    check('GET', '/posts', 200, [post], json({ link: '<http://x/api/v1/posts?page=2&cursor=abc>; rel="next"' }));
    check('GET', '/posts/tagged/lambda', 200, [post], json({ link: '<http://x/api/v1/posts/tagged/lambda?page=2&cursor=abc>; rel="next"' }));
    check('GET', '/posts/tagged/nope', 404, { detail: 'Not found.' });
    check('GET', '/posts/author/alice', 200, [post]);
    check('GET', '/posts/author/alice', 404, { detail: 'Invalid page.' });
    check('GET', '/posts/me', 200, [{ ...post, publish: false }]);
    check('GET', '/posts/me', 400, { publish: ['Must be a valid boolean.'] });
    check('GET', '/users/detail/alice', 200, {
      user: 'alice', last_login: null, date_joined: '2026-01-05 14:12:15.258987+00:00', total_posts: 0, total_favorites: 0,
      total_featured_posts: 0, display_name: null, location: null, about_me: null, website: null, twitter: null, linkedin: null,
      github: null, birth_date: null,
    });
    check('DELETE', '/posts/detail/hello', 204, undefined, new Headers());
    check('GET', '/nowhere', 404, { detail: 'Not found.' });
    check('PATCH', '/tags', 405, { detail: 'Method "PATCH" not allowed.' }, json({ allow: 'GET, HEAD, POST' }));
    check('OPTIONS', '/anything', 204, undefined, new Headers());
  });

  it.each([
    ['a field the schema does not have', () => check('GET', '/posts/detail/hello', 200, { ...post, extra: 1 }), /must NOT have additional properties/],
    ['a field of the wrong type', () => check('GET', '/posts/detail/hello', 200, { ...post, tags: 'a' }), /body\/tags must be array/],
    ['a missing field', () => check('GET', '/posts/detail/hello', 200, { ...post, slug: undefined }), /must have required property 'slug'/],
    ['an undocumented status', () => check('GET', '/posts/detail/hello', 418, { detail: 'x' }), /status 418 is not documented/],
    ['a body where none is documented', () => check('DELETE', '/posts/detail/hello', 204, { detail: 'x' }), /documents none/],
    ['another content type', () => check('GET', '/auth', 200, {}, new Headers({ 'content-type': 'text/plain' })), /Content-Type "text\/plain"/],
    ['a missing required header', () => check('GET', '/auth', 401, { detail: 'Invalid token.' }), /required header WWW-Authenticate/],
    ['an error text the operation does not give', () => check('GET', '/auth', 401, { detail: 'Nope.' }, json({ 'www-authenticate': 'Token' })), /allowed values/],
    ['a 200 on an undocumented path', () => check('GET', '/secret', 200, {}), /not a documented path.*status 200/s],
    ['Not found. where a list has no owner', () => check('GET', '/posts/me', 404, { detail: 'Not found.' }), /allowed values/],
    ['another field error on /posts/me', () => check('GET', '/posts/me', 400, { sort: ['x'] }), /must NOT have additional properties/],
    ['an Allow header that differs from the document', () => check('PATCH', '/tags', 405, { detail: 'x' }, json({ allow: 'GET' })), /Allow: GET differs/],
  ])('rejects %s', (_, run, message) => {
    expect(run).toThrow(OpenApiMismatch);
    expect(run).toThrow(message);
  });
});

describe('serving', () => {
  const api = useApi();

  it('serves the document at GET /api/v1/openapi.json without a token, with this host as its server', async () => {
    const response = await api.client().get('/openapi.json');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(response.body).toEqual(openApiDocument(api.url));
    expect(response.body.servers[0].url).toBe(api.url);

    const proxied = await api.client().get('/openapi.json', { headers: { 'X-Forwarded-Proto': 'https', 'X-Forwarded-Host': 'api.example.com' } });
    expect(proxied.body.servers[0].url).toBe(`https://api.example.com${API_PREFIX}`);
  });

  it('ignores a token, even an invalid one, on the documentation', async () => {
    const client = api.client('0'.repeat(40));
    expect((await client.get('/openapi.json')).status).toBe(200);
    expect((await client.get('/docs')).status).toBe(200);
  });

  it('serves the docs page, locked to its own origin, and every asset it loads', async () => {
    const page = await api.client().get('/docs', { headers: { Accept: 'text/html' } });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(page.text).not.toMatch(/https?:\/\//); // nothing from another host
    const referenced = [...page.text.matchAll(/(?:href|src)="docs\/([^"]+)"/g)].map(([, name]) => name!);
    expect(referenced.sort()).toEqual(Object.keys(DOCS_ASSETS).sort());

    for (const name of referenced) {
      const asset = await api.client().get(`/docs/${name}`);
      expect(asset.status, name).toBe(200);
      expect(asset.headers.get('content-type'), name).toBe(DOCS_ASSETS[name as keyof typeof DOCS_ASSETS]);
    }
  });

  it('serves the swagger-ui-dist files as they are, gzipped when accepted', async () => {
    for (const file of SWAGGER_UI_FILES) {
      const response = await fetch(`${api.url}/docs/${file}`, { headers: { 'Accept-Encoding': 'identity' } });
      expect(response.headers.get('content-encoding'), file).toBeNull();
      expect(Buffer.from(await response.arrayBuffer()).equals(readFileSync(join(swaggerUiDistDirectory(), file))), file).toBe(true);
    }
    // fetch asks for gzip and unpacks it.
    const zipped = await api.client().get('/docs/swagger-ui-bundle.js');
    expect(zipped.headers.get('content-encoding')).toBe('gzip');
    expect(zipped.text).toBe(readFileSync(join(swaggerUiDistDirectory(), 'swagger-ui-bundle.js'), 'utf8'));
  });

  it('answers an unknown asset with the 404 of the API', async () => {
    const response = await api.client().get('/docs/nope.js');
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ detail: 'Not found.' });
    expect((await api.client().request('POST', '/docs')).status).toBe(405);
  });

  it('answers GET /api/v1, the URL npm start prints, with an index whose links answer', async () => {
    const index = await api.client().get('');
    expect(index.status).toBe(200);
    expect(index.body).toMatchObject({ docs: `${api.url}/docs`, openapi: `${api.url}/openapi.json` });
    expect((await api.client().get('/')).body).toEqual(index.body);
    const docs = await fetch(index.body.docs);
    expect(docs.status).toBe(200);
    expect(docs.headers.get('content-type')).toMatch(/^text\/html/);
    const served = await fetch(index.body.openapi);
    expect(served.status).toBe(200);
    expect(await served.json()).toEqual(openApiDocument(api.url));

    // Every route, once per method, with its summary and whether it takes a token.
    const endpoints = index.body.endpoints as { method: string; path: string; summary: string; token: boolean }[];
    expect(endpoints.map((e) => `${e.method} ${e.path}`).sort()).toEqual(ROUTES.map((route) => `${route.method} ${API_PREFIX}${route.path}`).sort());
    expect(endpoints).toContainEqual({ method: 'POST', path: `${API_PREFIX}/login`, summary: document.paths['/login'].post.summary, token: false });
    expect(endpoints).toContainEqual({ method: 'GET', path: `${API_PREFIX}/posts/me`, summary: document.paths['/posts/me'].get.summary, token: true });
    // The public GETs without parameters answer as listed.
    for (const endpoint of endpoints.filter((e) => e.method === 'GET' && !e.token && !e.path.includes('{'))) {
      expect((await fetch(`${api.url.replace(API_PREFIX, '')}${endpoint.path}`)).status, endpoint.path).toBe(200);
    }
  });
});
