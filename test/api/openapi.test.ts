import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DOCS_ASSETS, SWAGGER_UI_FILES, swaggerUiDistDirectory } from '#lib/docs/swagger-ui.ts';
import { openApiDocument, openApiPath } from '#lib/openapi/document.ts';
import { PASSWORD_MESSAGES } from '#lib/auth/password-rules.ts';
import { PAGE_SIZES, parsePageRequest } from '#lib/pager.ts';
import { POST_LIMITS } from '#lib/posts/limits.ts';
import { listParams } from '#lib/lists/list.ts';
import { parseSort, POST_SORTS } from '#lib/lists/post-lists.ts';
import { API_PREFIX, ROUTES, routeMethods } from '#lib/routes.ts';
import { couldBeSlug, MAX_SLUG_LENGTH, MAX_SUFFIXED_SLUG_LENGTH } from '#lib/slugs/rules.ts';
import { TAG_TITLE_MAX_LENGTH } from '#lib/tags/tag.ts';
import { PROFILE_SPECS } from '#lib/profiles/profile.ts';
import { BOOLEAN_TEXTS, validate } from '#lib/validation.ts';
import { EMPTY_PROFILE_FIELDS } from '../support/contract.ts';
import { useApi } from '../support/fixture.ts';
import { OpenApiMismatch, RequestValidator, ResponseValidator } from '../support/openapi.ts';

// The OpenAPI document (lib/openapi/document.ts): complete for the route table, internally
// consistent, its limits those the code enforces, as lenient as the API where the API is, its
// examples a working session in document order, and served as built. That every response of the
// integration suite matches it is checked by test/support/api.ts on each request; that other
// tools read it so too, by npm run lint:openapi and test/api/prism.test.ts.

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

  it('has an operation for every route of lib/routes.ts, and no other (besides the preflight of each path)', () => {
    const documented = operations()
      .filter(([, method]) => method !== 'options')
      .map(([path, method]) => `${method.toUpperCase()} ${path}`);
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
      expect(
        statuses.some((status) => /^2/.test(status)),
        label,
      ).toBe(true);
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
      } else if (route.publicRead) {
        // A token, or none when the deployment has public reads on; a bad token is still a 401.
        expect(op.security, label).toEqual([{ tokenAuth: [] }, {}]);
        expect(op.responses['401'], label).toBeDefined();
      } else {
        expect(op.security, label).toBeUndefined(); // the document's default: tokenAuth
        expect(op.responses['401'], label).toBeDefined();
      }
    }
  });

  it('gives every validated GET its caching headers and its 304, the edit its modified and its 409', () => {
    for (const route of ROUTES) {
      const op = document.paths[openApiPath(route)][route.method.toLowerCase()];
      const label = `${route.method} ${route.path}`;
      expect(
        Object.keys(op.responses['200']?.headers ?? {}).filter((name) => ['ETag', 'Cache-Control', 'Vary'].includes(name)),
        label,
      ).toEqual(route.validated ? ['ETag', 'Cache-Control', 'Vary'] : route.handler === 'feed/rss' ? ['ETag'] : []);
      expect(op.responses['304'] !== undefined, label).toBe(route.validated === true || route.handler === 'feed/rss');
    }
    const update = document.paths['/posts/detail/{slug}'].put;
    expect(update.responses['409'].content['application/json'].example).toEqual({ detail: 'The post was changed since you read it.' });
    expect(document.components.schemas.PostUpdate.properties.modified.type).toBe('string');
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
        // v1.3: comments, reports and their resolve.
        ...['post /posts/detail/{slug}/comments', 'put /comments/detail/{id}', 'post /posts/detail/{slug}/report', 'post /comments/detail/{id}/report'],
        'post /reports/detail/{id}/resolve',
        // The lists that read their parameters from a GET's body too.
        ...[
          '/posts',
          '/posts/tagged/{slug}',
          '/posts/author/{username}',
          '/posts/me',
          '/users/detail/{username}/favorites',
          '/posts/detail/{slug}/comments',
          '/comments/detail/{id}/replies',
          '/users/detail/{username}/comments',
          '/reports',
        ].flatMap((path) => [`get ${path}`, `head ${path}`]),
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
        expect(
          (op.parameters as Json[]).find((p) => p.name === parameter.name),
          `${path} ${parameter.name}`,
        ).toEqual(parameter);
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
    expect(publish).toEqual(expect.objectContaining({ in: 'query' }));
    expect(publish.schema.anyOf[0]).toEqual({ type: 'boolean' });
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
            const allow = Object.keys(document.paths[path])
              .filter((m) => m !== 'options')
              .map((m) => m.toUpperCase())
              .join(', ');
            if (resolve(header).required) headers.set(name, name === 'WWW-Authenticate' ? 'Token' : name === 'Allow' ? allow : '1');
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
      expect(pageSize.schema.anyOf[0].maximum, path).toBe(PAGE_SIZES[list]);
      expect(pageSize.schema.default, path).toBe(PAGE_SIZES[list]);
      expect(document.paths[path].get.responses['200'].content['application/json'].schema.maxItems, path).toBe(PAGE_SIZES[list]);
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

// Issue 15, item 8: well-known OpenAPI tools found the document stricter than the API. What the
// API accepts (read from the code that parses it, and confirmed over HTTP below), the document's
// request schemas accept too.
describe('the document accepts what the API accepts', () => {
  const requests = new RequestValidator(document);
  const FORM = 'application/x-www-form-urlencoded';
  const JSON_TYPE = 'application/json';
  const apiAcceptsBoolean = (text: string) => {
    try {
      validate({ data: { publish: text }, form: true }, { publish: { type: 'boolean', required: true } });
      return true;
    } catch {
      return false;
    }
  };
  const booleanTexts = [...BOOLEAN_TEXTS.true, ...BOOLEAN_TEXTS.false].flatMap((text) => [
    text,
    text.toUpperCase(),
    ` ${text[0]!.toUpperCase()}${text.slice(1)} `,
  ]);

  it('an empty birth_date in a form, which clears the date', () => {
    expect(requests.body('/users/detail/{username}', 'put', FORM, { birth_date: '' })).toBeNull();
    expect(requests.body('/users/detail/{username}', 'put', FORM, { birth_date: '1990-04-01' })).toBeNull();
    expect(requests.body('/users/detail/{username}', 'put', JSON_TYPE, { birth_date: null })).toBeNull();
    // What the API refuses, the document refuses too.
    expect(requests.body('/users/detail/{username}', 'put', FORM, { birth_date: '1990-02-30' })).not.toBeNull();
    expect(requests.body('/users/detail/{username}', 'put', FORM, { birth_date: 'yesterday' })).not.toBeNull();
  });

  it('every text the API takes for publish (a checkbox sends "on"), in forms, JSON and the query of /posts/me', () => {
    for (const text of booleanTexts) {
      expect(apiAcceptsBoolean(text), text).toBe(true);
      for (const [path, method] of [
        ['/posts', 'post'],
        ['/posts/detail/{slug}', 'put'],
      ] as const) {
        expect(requests.body(path, method, FORM, { title: 'T', description: 'D', publish: text }), `${method} ${path} form publish=${text}`).toBeNull();
        expect(requests.body(path, method, JSON_TYPE, { title: 'T', description: 'D', publish: text }), `${method} ${path} JSON "${text}"`).toBeNull();
      }
      expect(requests.parameter('/posts/me', 'get', 'publish', text), `GET /posts/me?publish=${text}`).toBeNull();
    }
    for (const value of [true, false, 1, 0])
      expect(requests.body('/posts', 'post', JSON_TYPE, { title: 'T', description: 'D', publish: value }), String(value)).toBeNull();
    for (const text of ['maybe', '2', '']) {
      expect(apiAcceptsBoolean(text), text).toBe(false);
      expect(requests.body('/posts', 'post', FORM, { title: 'T', description: 'D', publish: text }), text).not.toBeNull();
      expect(requests.parameter('/posts/me', 'get', 'publish', text), text).not.toBeNull();
    }
  });

  it('any page_size: the API takes at most the maximum and ignores what is not a positive integer', () => {
    const lists = [
      ['/users', 'users'],
      ['/tags', 'tags'],
      ['/posts', 'posts'],
      ['/posts/me', 'posts'],
      ['/users/detail/{username}/favorites', 'posts'],
    ] as const;
    for (const [path, list] of lists) {
      for (const raw of ['1', '20', String(PAGE_SIZES[list]), String(PAGE_SIZES[list] + 1), '100000', '0', '-5', '1.5', 'abc', '', '1234567890']) {
        const { pageSize } = parsePageRequest({ page_size: raw }, PAGE_SIZES[list]);
        expect(pageSize, `${path} page_size=${raw}`).toBeGreaterThanOrEqual(1);
        expect(requests.parameter(path, 'get', 'page_size', raw), `${path} page_size=${raw}`).toBeNull();
      }
    }
  });

  it('any sort: an unknown one lists the newest first', () => {
    for (const raw of [...POST_SORTS, 'NEWEST', 'random', '']) {
      expect(POST_SORTS, raw).toContain(parseSort(raw));
      for (const path of ['/posts', '/posts/tagged/{slug}', '/posts/author/{username}', '/posts/me']) {
        expect(requests.parameter(path, 'get', 'sort', raw), `${path} sort=${raw}`).toBeNull();
      }
    }
    const sort = (document.paths['/posts'].get.parameters as Json[]).find((p) => p.name === 'sort')!;
    expect(sort.schema.anyOf[0].enum).toEqual([...POST_SORTS]);
  });

  it('the list parameters in the body of a GET, as the post lists read them', () => {
    const names = (path: string, mediaType: string) => Object.keys(resolve(document.paths[path].get.requestBody.content[mediaType].schema).properties).sort();
    for (const mediaType of [JSON_TYPE, FORM]) {
      for (const path of ['/posts', '/posts/tagged/{slug}', '/posts/author/{username}'])
        expect(names(path, mediaType), path).toEqual(['cursor', 'page', 'page_size', 'q', 'sort', 'view']);
      expect(names('/posts/me', mediaType)).toEqual(['cursor', 'page', 'page_size', 'publish', 'q', 'sort', 'view']);
      expect(names('/users/detail/{username}/favorites', mediaType)).toEqual(['cursor', 'page', 'page_size', 'view']);
    }
    // listParams reads these names from a body, numbers and booleans as their text.
    const body = { data: { q: 'lambda', sort: 'views', page: 2, page_size: 20, cursor: 'c', publish: false, view: 'summary' }, form: false };
    expect(listParams({}, body, ['q', 'sort', 'page', 'page_size', 'cursor', 'publish', 'view'])).toEqual({
      q: 'lambda',
      sort: 'views',
      page: '2',
      page_size: '20',
      cursor: 'c',
      publish: 'false',
      view: 'summary',
    });
    expect(requests.body('/posts/me', 'get', JSON_TYPE, body.data)).toBeNull();
    expect(requests.body('/posts', 'get', FORM, { sort: 'views', page_size: '20' })).toBeNull();
    expect(document.paths['/posts'].get.requestBody.required).toBe(false);
  });
});

describe('the document, for the tools that read it', () => {
  it('bounds every slug: maxLength on the slug parameters and the slug schemas, as the API bounds them', () => {
    const slugParameters = operations().flatMap(([path, method, op]) =>
      ((op.parameters ?? []) as Json[])
        .filter((p) => p.name === 'slug' || (path === '/feed' && p.name === 'tag'))
        .map((p) => [`${method} ${path} ${p.name}`, p] as const),
    );
    expect(slugParameters.length).toBeGreaterThan(20);
    for (const [label, parameter] of slugParameters) expect(parameter.schema.maxLength, label).toBe(MAX_SUFFIXED_SLUG_LENGTH);
    expect(document.components.schemas.Slug.maxLength).toBe(MAX_SUFFIXED_SLUG_LENGTH);
    expect(document.components.schemas.TagCreate.properties.slug.maxLength).toBe(MAX_SLUG_LENGTH);
    // The bound is the API's: a longer path value cannot name a slug (answered 404 without a read).
    expect(couldBeSlug(`${'a'.repeat(MAX_SLUG_LENGTH)}-${'9'.repeat(MAX_SUFFIXED_SLUG_LENGTH - MAX_SLUG_LENGTH - 1)}`)).toBe(true);
    expect(couldBeSlug('a'.repeat(MAX_SUFFIXED_SLUG_LENGTH + 1))).toBe(false);
  });

  it("bounds every array with maxItems (but a post's tags as a JSON array, whose repeats and blanks the API drops)", () => {
    const unbounded: string[] = [];
    const walk = (node: unknown, at: string) => {
      if (node === null || typeof node !== 'object') return;
      const schema = node as Json;
      const types = [schema.type].flat();
      if (types.includes('array') && schema.maxItems === undefined) unbounded.push(at);
      for (const [key, value] of Object.entries(schema)) if (key !== 'examples' && key !== 'example') walk(value, `${at}/${key}`);
    };
    walk(document.paths, '#/paths');
    walk(document.components, '#/components');
    expect(unbounded.sort()).toEqual(['#/components/schemas/PostCreate/properties/tags/oneOf/1', '#/components/schemas/PostUpdate/properties/tags/oneOf/1']);
    expect(document.components.schemas.Messages.maxItems).toBe(Object.keys(PASSWORD_MESSAGES).length);
    expect(document.components.schemas.PostCreate.properties.tags.description).toContain(`at most ${POST_LIMITS.tags} distinct`);
  });

  it('answers 404, 405 and the preflight in real operations, not only in x- extensions', () => {
    const referenced = (name: string) =>
      operations().filter(([, , op]) => Object.values(op.responses as Json).some((response) => response.$ref === `#/components/responses/${name}`));
    expect(referenced('NotFound').length).toBeGreaterThan(10);
    for (const [path, item] of Object.entries(document.paths as Json)) {
      const options = item.options;
      expect(options, path).toBeDefined();
      expect(options.security, path).toEqual([]);
      expect(options.responses['204'], path).toEqual({ $ref: '#/components/responses/Preflight' });
      expect(options.responses['405'], path).toEqual({ $ref: '#/components/responses/MethodNotAllowed' });
      expect(options.description, path).toContain(
        `Allow: ${Object.keys(item)
          .filter((m) => m !== 'options')
          .map((m) => m.toUpperCase())
          .join(', ')}`,
      );
    }
    expect(referenced('MethodNotAllowed')).toHaveLength(Object.keys(document.paths).length);
    expect(referenced('Preflight')).toHaveLength(Object.keys(document.paths).length);
  });

  it('names a contact and a licence', () => {
    expect(document.info.contact).toEqual(expect.objectContaining({ name: expect.any(String) }));
    expect(document.info.license).toEqual(expect.objectContaining({ name: expect.any(String) }));
  });

  it('gives last_login and date_joined their format: date-time (RFC 3339 with a space, as it allows)', () => {
    const profile = document.components.schemas.Profile.properties;
    expect(profile.last_login.format).toBe('date-time');
    expect(profile.date_joined.format).toBe('date-time');
    const validator = new ResponseValidator(document);
    const body = {
      user: 'alice',
      last_login: '2026-01-05 14:12:15.258987+00:00',
      date_joined: '2026-13-02 09:30:00.000001+00:00',
      total_posts: 0,
      total_favorites: 0,
      total_featured_posts: 0,
      ...EMPTY_PROFILE_FIELDS,
      is_moderator: false,
    };
    const check = (date_joined: string) =>
      validator.check({
        method: 'GET',
        url: `http://127.0.0.1${API_PREFIX}/users/detail/alice`,
        status: 200,
        headers: new Headers({ 'content-type': 'application/json' }),
        text: JSON.stringify({ ...body, date_joined }),
      });
    expect(() => check('2026-01-02 09:30:00.000001+00:00')).not.toThrow();
    expect(() => check('2026-13-02 09:30:00.000001+00:00')).toThrow(/must match format "date-time"/);
  });
});

describe('the response validator', () => {
  const validator = new ResponseValidator(document);
  const post = {
    author: 'alice',
    title: 'Hello',
    slug: 'hello',
    description: 'x',
    created: '2026-01-05T14:12:15.258987+00:00',
    modified: '2026-01-05T14:12:15.258987+00:00',
    publish: true,
    is_featured: false,
    tags: [],
    keywords: null,
    meta_description: null,
    rating_likes: 0,
    rating_dislikes: 0,
    total_visitors: 0,
    total_favorites: 0,
    total_comments: 0,
    comments_locked: false,
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
      user: 'alice',
      last_login: null,
      date_joined: '2026-01-05 14:12:15.258987+00:00',
      total_posts: 0,
      total_favorites: 0,
      total_featured_posts: 0,
      display_name: null,
      location: null,
      about_me: null,
      website: null,
      twitter: null,
      linkedin: null,
      github: null,
      birth_date: null,
      is_moderator: false,
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
    [
      'an error text the operation does not give',
      () => check('GET', '/auth', 401, { detail: 'Nope.' }, json({ 'www-authenticate': 'Token' })),
      /allowed values/,
    ],
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

    // The server is the host the request reached, never one a client names.
    const proxied = await api.client().get('/openapi.json', { headers: { 'X-Forwarded-Host': 'evil.example' } });
    expect(proxied.body.servers[0].url).toBe(api.url);
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

describe('the API answers what the document now accepts', () => {
  const api = useApi({ users: ['alice'] });

  it('an empty birth_date in a form clears the date; publish=on publishes; any page_size and sort list', async () => {
    const { alice } = api.users;
    const set = await alice.api.put(`/users/detail/${alice.username}`, { form: { birth_date: '1990-04-01' } });
    expect(set.body.birth_date).toBe('1990-04-01');
    const cleared = await alice.api.put(`/users/detail/${alice.username}`, { form: { birth_date: '' } });
    expect(cleared.status).toBe(200);
    expect(cleared.body.birth_date).toBeNull();

    for (const publish of ['on', 'YES', '1', ' True ']) {
      const created = await alice.api.post('/posts', { form: { title: `Checkbox ${publish}`, description: 'x', publish } });
      expect(created.status, publish).toBe(201);
      expect(created.body.publish, publish).toBe(true);
    }
    expect((await alice.api.get('/posts/me', { query: { publish: 'yes' } })).body).toHaveLength(4);
    expect((await alice.api.get('/posts/me', { query: { publish: 'off' } })).body).toHaveLength(0);

    for (const page_size of ['0', '-5', 'abc', '1000', '1234567890']) {
      const listed = await alice.api.get('/posts', { query: { page_size } });
      expect(listed.status, page_size).toBe(200);
      expect(listed.body, page_size).toHaveLength(4);
    }
    const one = await alice.api.get('/posts', { query: { page_size: '1', sort: 'random' } });
    expect(one.status).toBe(200);
    expect(one.body).toHaveLength(1);
    expect(one.body[0].title).toBe('Checkbox  True');
  });
});

/** The value of a parameter in a run of the examples: its example. */
function exampleOf(parameter: Json): string {
  if (parameter.example === undefined) throw new Error(`The ${parameter.in} parameter ${parameter.name} has no example`);
  return String(parameter.example);
}

// Tools that turn a document into a test collection (Portman, Postman's importer with newman) send
// each operation's examples, in document order, with the token the session got. Against a new
// deployment, those examples make a session that works: sign up, log in, ..., log out last.
describe('the examples, run in document order against a new deployment', () => {
  const api = useApi();
  /**
   * The examples answered with an error, and why: a single user votes on and reports their own post;
   * a comment's and a report's id are random, so the example ids name none (404); and the session's
   * user moderates nothing (403 on the moderators' routes).
   */
  const EXPECTED_ERRORS: Record<string, number> = {
    castVote: 403,
    reportPost: 403,
    getPostReport: 404,
    getPostReportHead: 404,
    getComment: 404,
    getCommentHead: 404,
    updateComment: 404,
    deleteComment: 404,
    listReplies: 404,
    listRepliesHead: 404,
    reportComment: 404,
    getCommentReport: 404,
    getCommentReportHead: 404,
    listReports: 403,
    listReportsHead: 403,
    resolveReport: 403,
    getSuspension: 403,
    getSuspensionHead: 403,
    suspendUser: 403,
    reinstateUser: 403,
  };

  it("each answer a documented status: a success, but for voting on and reporting one's own post, the comments' example ids and the moderators' routes", async () => {
    let token: string | undefined;
    const ran: string[] = [];
    // Document order: the paths, and the methods of each, as the document lists them.
    const inOrder = Object.entries(document.paths as Json).flatMap(([path, item]) =>
      Object.keys(item)
        .filter((method) => METHODS.includes(method))
        .map((method): [string, string, Json] => [path, method, item[method]]),
    );
    for (const [path, method, op] of inOrder) {
      const parameters = (op.parameters ?? []) as Json[];
      let url = path;
      for (const parameter of parameters.filter((p) => p.in === 'path')) url = url.replace(`{${parameter.name}}`, encodeURIComponent(exampleOf(parameter)));
      const query: Record<string, string> = {};
      for (const parameter of parameters.filter((p) => p.in === 'query' && p.example !== undefined)) query[parameter.name] = exampleOf(parameter);
      const headers: Record<string, string> = {};
      for (const parameter of parameters.filter((p) => p.in === 'header')) headers[parameter.name] = exampleOf(parameter);
      let json: unknown;
      if (op.requestBody && method !== 'get' && method !== 'head') {
        json = op.requestBody.content['application/json'].example;
        if (op.requestBody.required) expect(json, `${method} ${path}: a required body without an example`).toBeDefined();
      }
      const client = api.client(Array.isArray(op.security) && op.security.length === 0 ? undefined : token);
      const response = await client.request(method.toUpperCase(), url, { headers, query, ...(json !== undefined ? { json } : {}) });
      const label = `${method.toUpperCase()} ${url} (${op.operationId}) → ${response.status} ${response.text.slice(0, 200)}`;
      expect(Object.keys(op.responses), label).toContain(String(response.status));
      const expected = EXPECTED_ERRORS[op.operationId as string];
      if (expected) expect(response.status, label).toBe(expected);
      else expect(response.status, label).toBeLessThan(300);
      const issued = (response.body as { token?: unknown } | null)?.token;
      if (typeof issued === 'string') token = issued;
      ran.push(op.operationId as string);
    }
    expect(ran).toHaveLength(operations().length);
    // The session ends with the logout, which revokes the token.
    expect(ran.filter((id) => !id.startsWith('preflight')).at(-1)).toBe('logout');
    expect((await api.client(token).get('/auth')).status).toBe(401);
  });
});
