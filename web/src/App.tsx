import { ErrorBoundary, lazy, LocationProvider, Route, Router } from 'preact-iso';
import type { PageName } from '../../lib/site/routes.ts';
import { SITE_ROUTES } from '../../lib/site/routes.ts';
import { Header } from './components/Header.tsx';
import { loadRenderer } from './components/Markdown.tsx';
import { hydrated } from './preloaded.ts';
import { siteName } from './site.ts';

// The site: one shell (header, main, footer) and a router whose pages load as chunks of their
// own, so the first load carries only the shell and the page it opens. The same component
// renders on the server (web/src/server.tsx) and in the browser (web/src/main.tsx).

// A post page needs the Markdown renderer: both chunks are fetched at once, and the page renders
// once both are here (over the server's HTML, the text is then the same). A renderer that failed
// to load shows a "Retry" of its own.
const Post = lazy(() => Promise.all([import('./pages/Post.tsx'), loadRenderer().catch(() => undefined)]).then(([page]) => page.default));

// Each page takes its own path's parameters (slug, username).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const PAGES: Record<PageName, preact.ComponentType<any>> = {
  home: lazy(() => import('./pages/Home.tsx')),
  post: Post,
  edit: lazy(() => import('./pages/Edit.tsx')),
  write: lazy(() => import('./pages/Write.tsx')),
  tags: lazy(() => import('./pages/Tags.tsx')),
  tag: lazy(() => import('./pages/Tag.tsx')),
  user: lazy(() => import('./pages/User.tsx')),
  favorites: lazy(() => import('./pages/Favorites.tsx')),
  myPosts: lazy(() => import('./pages/MyPosts.tsx')),
  login: lazy(() => import('./pages/Login.tsx')),
  signup: lazy(() => import('./pages/Signup.tsx')),
  settingsProfile: lazy(() => import('./pages/SettingsProfile.tsx')),
  settingsPassword: lazy(() => import('./pages/SettingsPassword.tsx')),
  moderation: lazy(() => import('./pages/Moderation.tsx')),
};
const NotFound = lazy(() => import('./pages/NotFound.tsx'));

/** A new page starts at its top, and keyboard and screen-reader focus moves to it. */
function onRouteChange(): void {
  window.scrollTo(0, 0);
  document.getElementById('main')?.focus({ preventScroll: true });
}

/** `url`: the address the server renders (the browser's own otherwise). */
export function App({ url }: { url?: string }) {
  return (
    // Links under /api/ (the RSS feed) are the API's, not pages of the site.
    <LocationProvider scope={/^\/(?!api(?:\/|$))/} {...(url ? { url } : {})}>
      <Header />
      <main id="main" tabIndex={-1}>
        <ErrorBoundary>
          <Router onRouteChange={onRouteChange} onLoadEnd={hydrated}>
            {[
              ...SITE_ROUTES.map((route) => <Route key={route.path} path={route.path} component={PAGES[route.page]} />),
              <Route key="default" default component={NotFound} />,
            ]}
          </Router>
        </ErrorBoundary>
      </main>
      <footer class="site-footer">
        <p>
          {siteName()} · <a href="/api/v1/feed">RSS feed</a> · <a href="/api/v1/docs">API</a>
        </p>
      </footer>
    </LocationProvider>
  );
}
