import { render } from 'preact';
import { ErrorBoundary, lazy, LocationProvider, Route, Router } from 'preact-iso';
import { Header } from './components/Header.tsx';
import { loadRenderer } from './components/Markdown.tsx';
import './styles.css';

// The site: one shell (header, main, footer) and a router whose pages load as chunks of their
// own, so the first load carries only the shell and the page it opens.

const Home = lazy(() => import('./pages/Home.tsx'));
// A post page needs the Markdown renderer: both chunks are fetched at once. The page shows a
// renderer that failed to load with a "Retry" of its own.
const Post = lazy(() => {
  loadRenderer().catch(() => undefined);
  return import('./pages/Post.tsx');
});
const Edit = lazy(() => import('./pages/Edit.tsx'));
const Write = lazy(() => import('./pages/Write.tsx'));
const Tags = lazy(() => import('./pages/Tags.tsx'));
const Tag = lazy(() => import('./pages/Tag.tsx'));
const User = lazy(() => import('./pages/User.tsx'));
const Favorites = lazy(() => import('./pages/Favorites.tsx'));
const MyPosts = lazy(() => import('./pages/MyPosts.tsx'));
const Login = lazy(() => import('./pages/Login.tsx'));
const Signup = lazy(() => import('./pages/Signup.tsx'));
const SettingsProfile = lazy(() => import('./pages/SettingsProfile.tsx'));
const SettingsPassword = lazy(() => import('./pages/SettingsPassword.tsx'));
const Moderation = lazy(() => import('./pages/Moderation.tsx'));
const NotFound = lazy(() => import('./pages/NotFound.tsx'));

/** A new page starts at its top, and keyboard and screen-reader focus moves to it. */
function onRouteChange(): void {
  window.scrollTo(0, 0);
  document.getElementById('main')?.focus({ preventScroll: true });
}

export function App() {
  return (
    // Links under /api/ (the RSS feed) are the API's, not pages of the site.
    <LocationProvider scope={/^\/(?!api(?:\/|$))/}>
      <Header />
      <main id="main" tabIndex={-1}>
        <ErrorBoundary>
          <Router onRouteChange={onRouteChange}>
            <Route path="/" component={Home} />
            <Route path="/posts/:slug" component={Post} />
            <Route path="/posts/:slug/edit" component={Edit} />
            <Route path="/write" component={Write} />
            <Route path="/tags" component={Tags} />
            <Route path="/tags/:slug" component={Tag} />
            <Route path="/users/:username" component={User} />
            <Route path="/users/:username/favorites" component={Favorites} />
            <Route path="/me/posts" component={MyPosts} />
            <Route path="/login" component={Login} />
            <Route path="/signup" component={Signup} />
            <Route path="/settings/profile" component={SettingsProfile} />
            <Route path="/settings/password" component={SettingsPassword} />
            <Route path="/moderation" component={Moderation} />
            <Route default component={NotFound} />
          </Router>
        </ErrorBoundary>
      </main>
      <footer class="site-footer">
        <p>
          Community Posts · <a href="/api/v1/feed">RSS feed</a> · <a href="/api/v1/docs">API</a>
        </p>
      </footer>
    </LocationProvider>
  );
}

render(<App />, document.getElementById('app')!);
