import { useEffect } from 'preact/hooks';
import type { Loaded } from '../hooks.ts';
import { loadFullPageOnce } from '../navigation.ts';
import { Loading, LoginWall, NotFoundContent } from './Gates.tsx';
import { Problem } from './Problem.tsx';

interface Props<T> {
  state: Loaded<T>;
  reload: () => void;
  children: (data: T, response: Response) => preact.ComponentChildren;
  /** What a 404 shows; default: the "Page not found" page. */
  notFound?: () => preact.ComponentChildren;
}

/** Whether what a page loaded is refused to a visitor: the site is not open to readers without an account. */
export function walled(state: Loaded<unknown>): boolean {
  return state.status === 'done' && !state.ok && state.failure.kind === 'unauthorized' && !state.failure.hadToken;
}

/** An API 404 reached by a client-side navigation: the address is loaded once as a full page (the server may redirect it). */
function AskTheServer() {
  useEffect(() => {
    loadFullPageOnce();
  }, []);
  return null;
}

/**
 * What a page shows for what it loaded: the content; "Page not found" for a 404 (after a
 * client-side navigation, the address is loaded as a full page first); the login wall
 * for a visitor where reading needs an account; else the problem, with "Retry" where it helps.
 */
export function Content<T>({ state, reload, children, notFound }: Props<T>) {
  if (state.status === 'loading') return <Loading />;
  if (state.ok) return <>{children(state.data, state.response)}</>;
  const { failure } = state;
  if (failure.kind === 'not-found') {
    return (
      <>
        <AskTheServer />
        {notFound ? notFound() : <NotFoundContent />}
      </>
    );
  }
  // With a token, the refused token is being forgotten and the page asked again as a visitor.
  if (failure.kind === 'unauthorized') return failure.hadToken ? <Loading /> : <LoginWall />;
  return <Problem failure={failure} onRetry={reload} />;
}
