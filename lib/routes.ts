// The one route table: the local server dispatches from it and the CDK stack builds its routes
// and functions from it. `handler` is the module under functions/ that exports `handler`.

export const API_PREFIX = '/api/v1';

export type HttpMethod = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'DELETE';

export interface Route {
  method: Exclude<HttpMethod, 'HEAD'>;
  /** Path under API_PREFIX, with `{name}` parameters as API Gateway writes them; '' is API_PREFIX itself. */
  path: string;
  handler: string;
  /**
   * 'read': needs read access to the table only; 'read-write': also writes; 'none': never touches
   * the table (its function gets no table permission and no TABLE_NAME).
   */
  access: 'read' | 'read-write' | 'none';
  /** Answered without `Authorization: Token ...` (login, and the API's own documentation). */
  public?: boolean;
  /**
   * A GET whose purpose is to change state (logout): it gets no HEAD route. Every other GET is
   * also answered for HEAD, without a body and without side effects.
   */
  changesState?: boolean;
  /** A paged list: its `Link` cursors are sealed with the deployment's cursor secret (lib/db/cursor.ts). */
  paged?: boolean;
  /**
   * A read of published content that, with PUBLIC_READS=true, also answers a request without an
   * Authorization header (its function's endpoint is `auth: 'public-read'`). Always `validated`.
   */
  publicRead?: boolean;
  /** A GET of content (a post, a list, a profile, a tag): answered with an ETag, 304 for a matching If-None-Match. */
  validated?: boolean;
}

export const ROUTES: readonly Route[] = [
  { method: 'POST', path: '/login', handler: 'auth/login', access: 'read-write', public: true },
  { method: 'GET', path: '/logout', handler: 'auth/logout', access: 'read-write', changesState: true },
  { method: 'GET', path: '/auth', handler: 'auth/check', access: 'read' },
  { method: 'GET', path: '/users', handler: 'users/list', access: 'read', paged: true, publicRead: true, validated: true },
  { method: 'GET', path: '/users/detail/{username}', handler: 'users/detail', access: 'read', publicRead: true, validated: true },
  { method: 'PUT', path: '/users/detail/{username}', handler: 'users/update', access: 'read-write' },
  // Sign-up (public) and password change (docs/api.md, endpoints 6a and 6b).
  { method: 'POST', path: '/users', handler: 'users/signup', access: 'read-write', public: true },
  { method: 'POST', path: '/users/detail/{username}/password', handler: 'users/password', access: 'read-write' },
  { method: 'GET', path: '/tags', handler: 'tags/list', access: 'read', paged: true, publicRead: true, validated: true },
  { method: 'POST', path: '/tags', handler: 'tags/create', access: 'read-write' },
  { method: 'GET', path: '/tags/detail/{slug}', handler: 'tags/detail', access: 'read', publicRead: true, validated: true },
  { method: 'GET', path: '/posts', handler: 'posts/list', access: 'read', paged: true, publicRead: true, validated: true },
  { method: 'POST', path: '/posts', handler: 'posts/create', access: 'read-write' },
  { method: 'GET', path: '/posts/tagged/{slug}', handler: 'posts/tagged', access: 'read', paged: true, publicRead: true, validated: true },
  { method: 'GET', path: '/posts/author/{username}', handler: 'posts/author', access: 'read', paged: true, publicRead: true, validated: true },
  { method: 'GET', path: '/posts/me', handler: 'posts/mine', access: 'read', paged: true, validated: true },
  // Reading a post records the caller's first visit, so the detail route writes.
  { method: 'GET', path: '/posts/detail/{slug}', handler: 'posts/detail', access: 'read-write', publicRead: true, validated: true },
  { method: 'PUT', path: '/posts/detail/{slug}', handler: 'posts/update', access: 'read-write' },
  { method: 'DELETE', path: '/posts/detail/{slug}', handler: 'posts/delete', access: 'read-write' },
  // The RSS feed of the newest published posts (?tag=<slug>: of one tag), for feed readers: no token.
  { method: 'GET', path: '/feed', handler: 'feed/rss', access: 'read', public: true },
  // Votes and favorites (docs/api.md, Votes and Favorites).
  { method: 'GET', path: '/posts/detail/{slug}/vote', handler: 'posts/vote/show', access: 'read' },
  { method: 'POST', path: '/posts/detail/{slug}/vote', handler: 'posts/vote/cast', access: 'read-write' },
  { method: 'DELETE', path: '/posts/detail/{slug}/vote', handler: 'posts/vote/remove', access: 'read-write' },
  { method: 'GET', path: '/posts/detail/{slug}/favorite', handler: 'posts/favorite/show', access: 'read' },
  { method: 'POST', path: '/posts/detail/{slug}/favorite', handler: 'posts/favorite/add', access: 'read-write' },
  { method: 'DELETE', path: '/posts/detail/{slug}/favorite', handler: 'posts/favorite/remove', access: 'read-write' },
  // Related posts (docs/api.md, Related posts): the published posts sharing the most tags with a post.
  { method: 'GET', path: '/posts/detail/{slug}/related', handler: 'posts/related', access: 'read', publicRead: true, validated: true },
  { method: 'GET', path: '/users/detail/{username}/favorites', handler: 'users/favorites', access: 'read', paged: true, publicRead: true, validated: true },
  // Comments and their replies (docs/api.md, Comments).
  { method: 'GET', path: '/posts/detail/{slug}/comments', handler: 'posts/comments/list', access: 'read', paged: true, publicRead: true, validated: true },
  { method: 'POST', path: '/posts/detail/{slug}/comments', handler: 'posts/comments/create', access: 'read-write' },
  { method: 'GET', path: '/comments/detail/{id}', handler: 'comments/detail', access: 'read', publicRead: true, validated: true },
  { method: 'PUT', path: '/comments/detail/{id}', handler: 'comments/update', access: 'read-write' },
  { method: 'DELETE', path: '/comments/detail/{id}', handler: 'comments/delete', access: 'read-write' },
  { method: 'GET', path: '/comments/detail/{id}/replies', handler: 'comments/replies', access: 'read', paged: true, publicRead: true, validated: true },
  { method: 'GET', path: '/users/detail/{username}/comments', handler: 'users/comments', access: 'read', paged: true, publicRead: true, validated: true },
  // Reports and their moderation (docs/api.md, Reports), and suspensions (Moderators).
  { method: 'GET', path: '/posts/detail/{slug}/report', handler: 'posts/report/show', access: 'read' },
  { method: 'POST', path: '/posts/detail/{slug}/report', handler: 'posts/report/file', access: 'read-write' },
  { method: 'GET', path: '/comments/detail/{id}/report', handler: 'comments/report/show', access: 'read' },
  { method: 'POST', path: '/comments/detail/{id}/report', handler: 'comments/report/file', access: 'read-write' },
  { method: 'GET', path: '/reports', handler: 'reports/list', access: 'read', paged: true, validated: true },
  { method: 'POST', path: '/reports/detail/{id}/resolve', handler: 'reports/resolve', access: 'read-write' },
  { method: 'GET', path: '/users/detail/{username}/suspension', handler: 'users/suspension/show', access: 'read' },
  { method: 'POST', path: '/users/detail/{username}/suspension', handler: 'users/suspension/suspend', access: 'read-write' },
  { method: 'DELETE', path: '/users/detail/{username}/suspension', handler: 'users/suspension/reinstate', access: 'read-write' },
  // The API's own documentation: an index at the API's root URL (links to the rest), the OpenAPI
  // document, and the Swagger UI page with its assets.
  { method: 'GET', path: '', handler: 'docs/index', access: 'none', public: true },
  { method: 'GET', path: '/openapi.json', handler: 'docs/openapi', access: 'none', public: true },
  { method: 'GET', path: '/docs', handler: 'docs/page', access: 'none', public: true },
  { method: 'GET', path: '/docs/{asset}', handler: 'docs/asset', access: 'none', public: true },
];

/** The methods a route answers: a GET that does not change state also answers HEAD. */
export function routeMethods(route: Route): HttpMethod[] {
  return route.method === 'GET' && !route.changesState ? ['GET', 'HEAD'] : [route.method];
}

/** The route keys of a route as API Gateway writes them: `GET /api/v1/posts`, `HEAD /api/v1/posts`. */
export function routeKeys(route: Route): string[] {
  return routeMethods(route).map((method) => `${method} ${API_PREFIX}${route.path}`);
}

/** 'posts/detail' → 'PostsDetail': the name of a handler's function in the stack. */
export function functionName(handler: string): string {
  return handler
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((part) => part[0]!.toUpperCase() + part.slice(1))
    .join('');
}

/** Answers every request no route matches: 404, or 405 on a known path. */
export const FALLBACK_HANDLER = 'fallback/not-found';

/** HTTP API matches a path to its routes as if one trailing slash were not there. */
export function routingPath(path: string): string {
  return path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
}

/** The parameters of `path` under `pattern` (`/posts/detail/{slug}`), or null if it does not match. */
export function matchPath(pattern: string, path: string): Record<string, string> | null {
  return matchSegments(pattern, path.split('/'));
}

/**
 * The parameters of a path given as its segments (each may hold a `/` that was sent encoded, as
 * `%2F`: it belongs to its segment) under `pattern`, or null if it does not match.
 */
export function matchSegments(pattern: string, got: string[]): Record<string, string> | null {
  const want = pattern.split('/');
  if (want.length !== got.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i++) {
    const segment = want[i]!;
    const actual = got[i]!;
    if (segment.startsWith('{') && segment.endsWith('}')) {
      if (actual === '') return null;
      params[segment.slice(1, -1)] = actual;
    } else if (segment !== actual) {
      return null;
    }
  }
  return params;
}

export type RouteMatch =
  { kind: 'route'; route: Route; params: Record<string, string> } | { kind: 'method-not-allowed'; allowed: HttpMethod[] } | { kind: 'not-found' };

/** Resolves a full path (with API_PREFIX) and a method against the route table. */
export function matchRoute(method: string, fullPath: string): RouteMatch {
  if (fullPath !== API_PREFIX && !fullPath.startsWith(`${API_PREFIX}/`)) return { kind: 'not-found' };
  // `/api/v1/` is the index's path too: one trailing slash does not count.
  const rest = fullPath.slice(API_PREFIX.length);
  const path = rest === '/' ? '' : routingPath(rest);
  const allowed: HttpMethod[] = [];
  for (const route of ROUTES) {
    const params = matchPath(route.path, path);
    if (!params) continue;
    const methods = routeMethods(route);
    if (methods.includes(method.toUpperCase() as HttpMethod)) return { kind: 'route', route, params };
    allowed.push(...methods);
  }
  return allowed.length > 0 ? { kind: 'method-not-allowed', allowed } : { kind: 'not-found' };
}
