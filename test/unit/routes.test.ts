import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  API_PREFIX,
  FALLBACK_HANDLER,
  functionName,
  matchPath,
  matchRoute,
  ROUTES,
  routeKeys,
  routeMethods,
  routingPath,
  type RouteMatch,
} from '#lib/routes.ts';

// The route table and how a request finds its route (lib/routes.ts): what the fallback function
// answers 404 or 405 from, and what the stack builds its routes and functions from.

/** The handler a method and path reach, or the fallback's answer. */
function reached(method: string, path: string): string | RouteMatch {
  const match = matchRoute(method, path);
  return match.kind === 'route' ? match.route.handler : match;
}

describe('matchRoute', () => {
  it('finds the route of each method on a path, with its parameters', () => {
    expect(matchRoute('GET', '/api/v1/posts')).toMatchObject({ kind: 'route', route: { handler: 'posts/list' }, params: {} });
    expect(matchRoute('POST', '/api/v1/posts')).toMatchObject({ kind: 'route', route: { handler: 'posts/create' }, params: {} });
    expect(matchRoute('GET', '/api/v1/posts/detail/hello-world')).toMatchObject({
      kind: 'route',
      route: { handler: 'posts/detail' },
      params: { slug: 'hello-world' },
    });
    expect(reached('PUT', '/api/v1/posts/detail/hello-world')).toBe('posts/update');
    expect(reached('DELETE', '/api/v1/posts/detail/hello-world')).toBe('posts/delete');
    expect(matchRoute('PUT', '/api/v1/users/detail/alice')).toMatchObject({ kind: 'route', route: { handler: 'users/update' }, params: { username: 'alice' } });
    expect(reached('GET', '/api/v1/docs')).toBe('docs/page');
    // The API's root is the index, with or without its trailing slash.
    expect(reached('GET', '/api/v1')).toBe('docs/index');
    expect(reached('GET', '/api/v1/')).toBe('docs/index');
    expect(matchRoute('POST', '/api/v1')).toEqual({ kind: 'method-not-allowed', allowed: ['GET', 'HEAD'] });
    expect(matchRoute('GET', '/api/v1/docs/swagger-ui.css')).toMatchObject({ route: { handler: 'docs/asset' }, params: { asset: 'swagger-ui.css' } });
  });

  it('reaches every route of the table by its own method and path', () => {
    for (const route of ROUTES) {
      const path = API_PREFIX + route.path.replace(/\{(\w+)\}/g, 'x$1');
      expect(matchRoute(route.method, path), `${route.method} ${route.path}`).toEqual({
        kind: 'route',
        route,
        params: Object.fromEntries([...route.path.matchAll(/\{(\w+)\}/g)].map(([, name]) => [name, `x${name}`])),
      });
    }
  });

  it('takes the method in any case', () => {
    expect(reached('get', '/api/v1/tags')).toBe('tags/list');
    expect(reached('Post', '/api/v1/login')).toBe('auth/login');
  });

  it('answers 405 with the methods the path has on a known path, HEAD with every GET but logout', () => {
    expect(matchRoute('POST', '/api/v1/posts/detail/hello')).toEqual({ kind: 'method-not-allowed', allowed: ['GET', 'HEAD', 'PUT', 'DELETE'] });
    expect(matchRoute('PATCH', '/api/v1/posts')).toEqual({ kind: 'method-not-allowed', allowed: ['GET', 'HEAD', 'POST'] });
    expect(matchRoute('GET', '/api/v1/login')).toEqual({ kind: 'method-not-allowed', allowed: ['POST'] });
    expect(matchRoute('DELETE', '/api/v1/logout')).toEqual({ kind: 'method-not-allowed', allowed: ['GET'] });
    expect(matchRoute('OPTIONS', '/api/v1/users/detail/alice')).toEqual({ kind: 'method-not-allowed', allowed: ['GET', 'HEAD', 'PUT'] });
  });

  it('answers HEAD from the GET route of a path, except GET /logout (a GET that changes state)', () => {
    expect(reached('HEAD', '/api/v1/posts')).toBe('posts/list');
    expect(reached('HEAD', '/api/v1/posts/detail/hello')).toBe('posts/detail');
    expect(reached('HEAD', '/api/v1/auth')).toBe('auth/check');
    expect(reached('HEAD', '/api/v1/openapi.json')).toBe('docs/openapi');
    expect(matchRoute('HEAD', '/api/v1/logout')).toEqual({ kind: 'method-not-allowed', allowed: ['GET'] });
    expect(reached('GET', '/api/v1/logout')).toBe('auth/logout');
  });

  it('answers 404 for a path no route has, with any method', () => {
    for (const method of ['GET', 'POST', 'HEAD']) {
      for (const path of [
        '/api/v1/nothing',
        '/api/v1/posts/detail',
        '/api/v1/posts/detail/a/b',
        '/api/v1/Posts',
        '/api/v2/posts',
        '/posts',
        '/api/v1posts',
        '/api/v1//',
        '/api',
        '/',
        '',
      ]) {
        expect(matchRoute(method, path), `${method} ${path}`).toEqual({ kind: 'not-found' });
      }
    }
  });

  it('takes a path with one trailing slash as the path without it, and no more than one', () => {
    expect(reached('GET', '/api/v1/posts/')).toBe('posts/list');
    expect(matchRoute('GET', '/api/v1/posts/detail/hello/')).toMatchObject({ route: { handler: 'posts/detail' }, params: { slug: 'hello' } });
    expect(matchRoute('PATCH', '/api/v1/tags/')).toEqual({ kind: 'method-not-allowed', allowed: ['GET', 'HEAD', 'POST'] });
    expect(matchRoute('GET', '/api/v1/posts//')).toEqual({ kind: 'not-found' });
  });

  it('does not take an empty segment for a parameter, nor a doubled slash for one', () => {
    expect(matchRoute('GET', '/api/v1/posts/detail/')).toEqual({ kind: 'not-found' });
    expect(matchRoute('GET', '/api/v1/posts/detail//')).toEqual({ kind: 'not-found' });
    expect(matchRoute('PUT', '/api/v1/users/detail//')).toEqual({ kind: 'not-found' });
    expect(matchRoute('GET', '/api/v1//posts')).toEqual({ kind: 'not-found' });
    expect(matchRoute('GET', '/api/v1/posts/detail//x')).toEqual({ kind: 'not-found' });
  });

  it('passes parameters on as they are in the path, still encoded', () => {
    expect(matchRoute('GET', '/api/v1/users/detail/%C3%A9lodie')).toMatchObject({ params: { username: '%C3%A9lodie' } });
    expect(matchRoute('GET', '/api/v1/tags/detail/a%2Fb')).toMatchObject({ route: { handler: 'tags/detail' }, params: { slug: 'a%2Fb' } });
  });
});

describe('matchPath', () => {
  it('matches fixed segments exactly and gives each {parameter} its segment', () => {
    expect(matchPath('/tags', '/tags')).toEqual({});
    expect(matchPath('/tags', '/Tags')).toBeNull();
    expect(matchPath('/tags', '/tags/')).toBeNull();
    expect(matchPath('/posts/detail/{slug}', '/posts/detail/a-b')).toEqual({ slug: 'a-b' });
    expect(matchPath('/posts/detail/{slug}', '/users/detail/a-b')).toBeNull();
    expect(matchPath('/a/{x}/b/{y}', '/a/1/b/2')).toEqual({ x: '1', y: '2' });
  });

  it('needs as many segments as the pattern has', () => {
    expect(matchPath('/posts/detail/{slug}', '/posts/detail')).toBeNull();
    expect(matchPath('/posts/detail/{slug}', '/posts/detail/a/b')).toBeNull();
    expect(matchPath('/docs/{asset}', '/docs/css/app.css')).toBeNull();
  });

  it('refuses an empty segment for a parameter, wherever it is', () => {
    expect(matchPath('/posts/detail/{slug}', '/posts/detail/')).toBeNull();
    expect(matchPath('/{a}/x', '//x')).toBeNull();
    expect(matchPath('/a/{x}/b', '/a//b')).toBeNull();
    // A fixed empty segment is matched as written.
    expect(matchPath('//x', '//x')).toEqual({});
  });
});

describe('routingPath', () => {
  it('drops one trailing slash, but keeps the root', () => {
    expect(routingPath('/posts/')).toBe('/posts');
    expect(routingPath('/posts//')).toBe('/posts/');
    expect(routingPath('/posts')).toBe('/posts');
    expect(routingPath('/')).toBe('/');
  });
});

describe('routeKeys', () => {
  const route = (method: string, path: string) => ROUTES.find((r) => r.method === method && r.path === path)!;

  it('writes a GET route as its GET and HEAD keys, under the API prefix', () => {
    expect(routeKeys(route('GET', '/posts'))).toEqual(['GET /api/v1/posts', 'HEAD /api/v1/posts']);
    expect(routeKeys(route('GET', '/posts/detail/{slug}'))).toEqual(['GET /api/v1/posts/detail/{slug}', 'HEAD /api/v1/posts/detail/{slug}']);
  });

  it('writes GET /logout and the other methods as their own key alone', () => {
    expect(routeKeys(route('GET', '/logout'))).toEqual(['GET /api/v1/logout']);
    expect(routeKeys(route('POST', '/login'))).toEqual(['POST /api/v1/login']);
    expect(routeKeys(route('DELETE', '/posts/detail/{slug}'))).toEqual(['DELETE /api/v1/posts/detail/{slug}']);
  });

  it('gives every route keys of its own: no key twice in the table', () => {
    const all = ROUTES.flatMap(routeKeys);
    expect(new Set(all).size).toBe(all.length);
    expect(all).toHaveLength(ROUTES.length + ROUTES.filter((r) => routeMethods(r).includes('HEAD')).length);
    expect(ROUTES.filter((r) => !routeMethods(r).includes('HEAD') && r.method === 'GET').map((r) => r.path)).toEqual(['/logout']);
  });
});

describe('functionName', () => {
  it('makes a PascalCase name of a handler path', () => {
    expect(functionName('posts/detail')).toBe('PostsDetail');
    expect(functionName('auth/login')).toBe('AuthLogin');
    expect(functionName('docs/openapi')).toBe('DocsOpenapi');
    expect(functionName(FALLBACK_HANDLER)).toBe('FallbackNotFound');
    expect(functionName('a_b.c')).toBe('ABC');
  });

  it('gives each handler of the table, and the fallback, a distinct name', () => {
    const handlers = [...new Set(ROUTES.map((r) => r.handler)), FALLBACK_HANDLER];
    const names = handlers.map(functionName);
    expect(new Set(names).size).toBe(handlers.length);
    for (const name of names) expect(name).toMatch(/^[A-Z][A-Za-z0-9]*$/);
  });
});

describe('public reads and validated GETs', () => {
  const source = (handler: string) => readFileSync(new URL(`../../functions/${handler}.ts`, import.meta.url), 'utf8');

  it('are the routes the spec names, declared alike by the table and by their functions', () => {
    const publicReads = ROUTES.filter((r) => r.publicRead).map((r) => `${r.method} ${r.path}`);
    expect(publicReads.sort()).toEqual(
      [
        'GET /posts',
        'GET /posts/detail/{slug}',
        'GET /posts/detail/{slug}/related',
        'GET /posts/tagged/{slug}',
        'GET /posts/author/{username}',
        'GET /tags',
        'GET /tags/detail/{slug}',
        'GET /users',
        'GET /users/detail/{username}',
        'GET /users/detail/{username}/favorites',
        // v1.3: the comment reads.
        'GET /posts/detail/{slug}/comments',
        'GET /comments/detail/{id}',
        'GET /comments/detail/{id}/replies',
        'GET /users/detail/{username}/comments',
      ].sort(),
    );
    for (const route of ROUTES) {
      const code = source(route.handler);
      // lib/reads/routes.ts holds public reads only: a handler that wraps one of them declares it there.
      const declared = code.includes("auth: 'public-read'") || code.includes("from '#lib/reads/routes.ts'");
      expect(declared, route.handler).toBe(route.publicRead === true);
      if (route.publicRead) expect(route.validated, route.handler).toBe(true);
      else expect(code.includes('validated: true'), route.handler).toBe(route.validated === true);
    }
    expect(ROUTES.filter((r) => r.validated && !r.publicRead).map((r) => r.path)).toEqual(['/posts/me', '/reports']);
  });
});
