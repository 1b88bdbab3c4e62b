// The site's addresses, one table for the app's router (web/src/App.tsx) and the page renderer
// (lib/pages/): which paths are pages, which of them the server renders with their content, and
// which get the app's shell (pages of an account, forms) with `noindex`.

/** The app's pages, by name (web/src/App.tsx maps each to its component). */
export type PageName =
  | 'home'
  | 'post'
  | 'edit'
  | 'write'
  | 'tags'
  | 'tag'
  | 'user'
  | 'favorites'
  | 'myPosts'
  | 'login'
  | 'signup'
  | 'settingsProfile'
  | 'settingsPassword'
  | 'moderation';

export interface SiteRoute {
  /** A preact-iso pattern: `:name` is one path segment. */
  path: string;
  page: PageName;
  /** Rendered with its content for readers and crawlers (public reads on); else the shell. */
  rendered: boolean;
}

export const SITE_ROUTES: readonly SiteRoute[] = [
  { path: '/', page: 'home', rendered: true },
  { path: '/posts/:slug', page: 'post', rendered: true },
  { path: '/posts/:slug/edit', page: 'edit', rendered: false },
  { path: '/write', page: 'write', rendered: false },
  { path: '/tags', page: 'tags', rendered: true },
  { path: '/tags/:slug', page: 'tag', rendered: true },
  { path: '/users/:username', page: 'user', rendered: true },
  { path: '/users/:username/favorites', page: 'favorites', rendered: false },
  { path: '/me/posts', page: 'myPosts', rendered: false },
  { path: '/login', page: 'login', rendered: false },
  { path: '/signup', page: 'signup', rendered: false },
  { path: '/settings/profile', page: 'settingsProfile', rendered: false },
  { path: '/settings/password', page: 'settingsPassword', rendered: false },
  { path: '/moderation', page: 'moderation', rendered: false },
];

/** The query parameters that make a rendered list a page of the app (paged, sorted, searched): the shell. */
export const APP_QUERY_PARAMETERS = ['page', 'sort', 'q'] as const;

export interface MatchedRoute {
  route: SiteRoute;
  /** The path's `:name` segments, decoded; undefined when one does not decode. */
  params: Record<string, string>;
}

function decoded(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

/** The route of a path as sent (URL-encoded, no query), or undefined for a path the site does not know. */
export function matchRoute(path: string): MatchedRoute | undefined {
  const segments = path.split('/').slice(1);
  for (const route of SITE_ROUTES) {
    const pattern = route.path.split('/').slice(1);
    if (pattern.length !== segments.length) continue;
    const params: Record<string, string> = {};
    let matches = true;
    for (const [at, part] of pattern.entries()) {
      const segment = segments[at]!;
      if (part.startsWith(':')) {
        const value = segment === '' ? undefined : decoded(segment);
        if (value === undefined) matches = false;
        else params[part.slice(1)] = value;
      } else if (part !== segment) matches = false;
      if (!matches) break;
    }
    if (matches) return { route, params };
  }
  return undefined;
}
