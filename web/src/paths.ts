// The site's own addresses, in one place.

export const paths = {
  home: '/',
  post: (slug: string) => `/posts/${encodeURIComponent(slug)}`,
  /** A comment on its post's page. */
  comment: (slug: string, id: string) => `/posts/${encodeURIComponent(slug)}#comment-${id}`,
  edit: (slug: string) => `/posts/${encodeURIComponent(slug)}/edit`,
  write: '/write',
  tags: '/tags',
  tag: (slug: string) => `/tags/${encodeURIComponent(slug)}`,
  user: (username: string) => `/users/${encodeURIComponent(username)}`,
  favorites: (username: string) => `/users/${encodeURIComponent(username)}/favorites`,
  myPosts: '/me/posts',
  login: '/login',
  signup: '/signup',
  profileSettings: '/settings/profile',
  passwordSettings: '/settings/password',
  moderation: '/moderation',
};

/** `path?name=value&...`, leaving out empty values. */
export function withQuery(path: string, query: Record<string, string | number | null | undefined>): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value !== null && value !== undefined && value !== '') search.set(name, String(value));
  }
  const text = search.toString();
  return text ? `${path}?${text}` : path;
}

/** The login page, coming back to `next` (this page) afterwards. */
export function loginFor(next: string): string {
  return withQuery(paths.login, { next });
}

/** A `next` that stays on this site (a path, never `//host` or a scheme), else the home page. */
export function safeNext(next: string | undefined): string {
  return next && next.startsWith('/') && !next.startsWith('//') && !next.startsWith('/\\') ? next : paths.home;
}

/** The page a 1-based `?page=` names; anything else is page 1. */
export function pageNumber(value: string | undefined): number {
  return value && /^[1-9]\d{0,5}$/.test(value) ? Number(value) : 1;
}

/** The current address (path and query), for coming back after a login. */
export function here(): string {
  return `${location.pathname}${location.search}`;
}
