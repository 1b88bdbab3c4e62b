import { useEffect } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { useSession, useTitle } from '../hooks.ts';
import { here, loginFor, paths, withQuery } from '../paths.ts';

/**
 * A page that needs an account: without a token (never had one, logged out, or the API refused
 * it) it sends the person to log in, and back here afterwards.
 */
export function RequireAccount({ children }: { children: preact.ComponentChildren }) {
  const { token } = useSession();
  const { route } = useLocation();
  useEffect(() => {
    if (!token) route(loginFor(here()), true);
  }, [token]);
  return token ? <>{children}</> : null;
}

/** What a visitor sees where the site is not open to readers without an account (public reads off). */
export function LoginWall() {
  useTitle('Log in or sign up');
  return (
    <div class="wall">
      <h1>Log in or sign up</h1>
      <p>This community's posts are for its members. Log in, or sign up to join.</p>
      <p class="actions">
        <a class="button" href={loginFor(here())}>
          Log in
        </a>
        <a class="button secondary" href={withQuery(paths.signup, { next: here() })}>
          Sign up
        </a>
      </p>
    </div>
  );
}

/** The "Page not found" page: unknown paths, and posts, tags and users the API does not know. */
export function NotFoundContent() {
  useTitle('Page not found');
  return (
    <div>
      <h1>Page not found</h1>
      <p>There is nothing here. It may have been moved, renamed or deleted.</p>
      <p>
        <a href={paths.home}>See all posts</a>
      </p>
    </div>
  );
}

/** Shown while a page's content loads. */
export function Loading() {
  return (
    <p class="loading" role="status">
      Loading…
    </p>
  );
}
