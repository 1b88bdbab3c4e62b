import { useEffect, useRef, useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { api, outcome } from '../api/client.ts';
import { session } from '../api/session.ts';
import { useModerator, useSession } from '../hooks.ts';
import { loginFor, paths, withQuery } from '../paths.ts';
import { siteName } from '../site.ts';
import { SearchBox } from './SearchBox.tsx';

/**
 * The header of every page: the site's name, the search and the navigation named "Main". Below
 * 600 px the navigation's links sit behind its button "Menu" (styles.css), so a phone's first
 * screen is the page's; on a wider screen the button is hidden and the links shown.
 */
export function Header() {
  const { token, username, ended } = useSession();
  const moderator = useModerator();
  const { route, path, url } = useLocation();
  const [open, setOpen] = useState(false);
  const nav = useRef<HTMLElement>(null);
  const menuButton = useRef<HTMLButtonElement>(null);

  // A new page, or another login: the menu closes.
  useEffect(() => setOpen(false), [url, token]);
  // A press anywhere else closes it (a tap on a phone moves no focus).
  useEffect(() => {
    if (!open) return;
    const outside = (event: PointerEvent) => {
      if (!nav.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', outside);
    return () => document.removeEventListener('pointerdown', outside);
  }, [open]);

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
          {siteName()}
        </a>
        <SearchBox />
      </div>
      <nav
        aria-label="Main"
        class="main-nav"
        ref={nav}
        onKeyDown={(event) => {
          if (event.key === 'Escape' && open) {
            setOpen(false);
            menuButton.current?.focus();
          }
        }}
        onFocusOut={(event) => {
          // Focus that leaves the navigation (Tab past its last link) closes the menu.
          const next = event.relatedTarget as Node | null;
          if (next && !nav.current?.contains(next)) setOpen(false);
        }}
      >
        <button type="button" class="menu-button secondary" ref={menuButton} aria-expanded={open} aria-controls="main-menu" onClick={() => setOpen(!open)}>
          Menu
        </button>
        {/* A choice (a link, "Log out") closes the menu. */}
        <ul id="main-menu" class={open ? 'open' : undefined} onClick={(event) => (event.target as Element).closest('a, button') && setOpen(false)}>
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
              {moderator && (
                <li>
                  <a href={paths.moderation}>Moderation</a>
                </li>
              )}
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
