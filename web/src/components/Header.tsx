import { useLocation } from 'preact-iso';
import { api, outcome } from '../api/client.ts';
import { session } from '../api/session.ts';
import { useSession } from '../hooks.ts';
import { loginFor, paths, withQuery } from '../paths.ts';
import { SearchBox } from './SearchBox.tsx';

/** The header of every page: the site's name, the search and the navigation named "Main". */
export function Header() {
  const { token, username, ended } = useSession();
  const { route, path, url } = useLocation();

  const logOut = async () => {
    // The API revokes the token; whatever it answers, this browser forgets it.
    await outcome(() => api.GET('/logout'));
    session.logout();
    route(paths.home);
  };
  const comeBack = path === paths.login || path === paths.signup ? undefined : url;

  return (
    <header class="site-header">
      <a class="skip" href="#main">
        Skip to content
      </a>
      <div class="bar">
        <a class="brand" href={paths.home}>
          Community Posts
        </a>
        <SearchBox />
      </div>
      <nav aria-label="Main" class="main-nav">
        <ul>
          <li>
            <a href={paths.home}>Posts</a>
          </li>
          <li>
            <a href={paths.tags}>Tags</a>
          </li>
          <li>
            <a href={paths.write}>Write</a>
          </li>
          {token && username ? (
            <>
              <li>
                <a href={paths.user(username)}>{username}</a>
              </li>
              <li>
                <a href={paths.myPosts}>My posts</a>
              </li>
              <li>
                <a href={paths.profileSettings}>Settings</a>
              </li>
              <li>
                <button type="button" class="link-button" onClick={logOut}>
                  Log out
                </button>
              </li>
            </>
          ) : (
            <>
              <li>
                <a href={comeBack ? loginFor(comeBack) : paths.login}>Log in</a>
              </li>
              <li>
                <a href={comeBack ? withQuery(paths.signup, { next: comeBack }) : paths.signup}>Sign up</a>
              </li>
            </>
          )}
        </ul>
      </nav>
      {ended && (
        <div class="notice" role="status">
          <p>Your session has ended. You see the site as a visitor; log in again to vote, write and see your drafts.</p>
          <button type="button" onClick={() => session.dismissEnded()}>
            Dismiss
          </button>
        </div>
      )}
    </header>
  );
}
