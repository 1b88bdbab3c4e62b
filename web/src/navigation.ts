// The path the browser loaded as a full page, the one the server answered: any other path the app
// shows came by a client-side navigation, which the server never saw (its 301s among them).
const loadedPath = typeof window === 'undefined' ? undefined : window.location.pathname;

/**
 * After a client-side navigation, loads the current address as a full page, once: the server may
 * know better than the API (a renamed post's old slug is a 301 there, a 404 in the API). The page
 * the server answered never loads again, so this cannot loop.
 */
export function loadFullPageOnce(): boolean {
  if (loadedPath === undefined || window.location.pathname === loadedPath) return false;
  window.location.assign(window.location.href);
  return true;
}
