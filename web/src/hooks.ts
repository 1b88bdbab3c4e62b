import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { siteName } from './site.ts';
import { moderates } from './api/account.ts';
import { outcomeOfAnswer, type Failure, type FieldErrors, type Outcome } from './api/client.ts';
import { session, VISITOR, type Session } from './api/session.ts';
import { isHydrating, takePreloaded } from './preloaded.ts';

/**
 * The session, re-rendering on login, logout, a refused token or another tab's change. Over the
 * server's HTML the first render is a visitor's, as the server's was; the reader's own session
 * follows at once.
 */
export function useSession(): Session {
  const [state, setState] = useState(() => (isHydrating() ? VISITOR : session.get()));
  useEffect(() => {
    setState(session.get());
    return session.subscribe(setState);
  }, []);
  return state;
}

/** Whether the person logged in moderates (false until known, and for visitors). */
export function useModerator(): boolean {
  const { token } = useSession();
  const [moderator, setModerator] = useState(false);
  useEffect(() => {
    setModerator(false);
    if (!token) return;
    let current = true;
    moderates(token).then((answer) => current && setModerator(answer));
    return () => {
      current = false;
    };
  }, [token]);
  return moderator;
}

/** The document title names the page's subject, then the site (the home page: the site alone). */
export function useTitle(subject: string | null): void {
  useEffect(() => {
    if (subject === null) return;
    const name = siteName();
    document.title = subject === name ? name : `${subject} · ${name}`;
    setMeta('property', 'og:title', subject);
    setMeta('name', 'twitter:title', subject);
    const canonical = document.querySelector<HTMLLinkElement>('link[rel="canonical"]');
    if (canonical) {
      const url = `${location.origin}${location.pathname}`;
      canonical.href = url;
      setMeta('property', 'og:url', url);
    }
  }, [subject]);
}

/** A head meta element's content, where the page has one. */
function setMeta(attribute: 'name' | 'property', key: string, content: string): void {
  const meta = document.querySelector<HTMLMetaElement>(`meta[${attribute}="${key}"]`);
  if (meta) meta.content = content;
}

/** The page's meta description while it is shown (a post's own), else the site's. */
export function useMetaDescription(text: string | null): void {
  useEffect(() => {
    const meta = document.querySelector<HTMLMetaElement>('meta[name="description"]');
    if (!meta || text === null) return;
    const site = meta.content;
    meta.content = text;
    setMeta('property', 'og:description', text);
    setMeta('name', 'twitter:description', text);
    return () => {
      meta.content = site;
      setMeta('property', 'og:description', site);
      setMeta('name', 'twitter:description', site);
    };
  }, [text]);
}

export type Loaded<T> = { status: 'loading' } | (Outcome<T> & { status: 'done' });

/**
 * Loads what a page shows, again when `keys` (or the login) change; `reload` asks again (the
 * "Retry" button). The token is one of the keys: a refused token is forgotten and the page is
 * asked again as a visitor. `preloaded` names the API read (lib/site/reads.ts) whose answer the
 * server may have put in the page: the first render shows it, and the API is asked again
 * (a reader's own view, the visit counted) while it stays shown. A login change keeps what is
 * shown until the new answer comes; other keys show the loading state.
 */
export function useLoad<T>(load: () => Promise<Outcome<T>>, keys: unknown[], preloaded?: string): { state: Loaded<T>; reload: () => void } {
  const { token } = useSession();
  const [state, setState] = useState<Loaded<T>>(() => {
    const answer = takePreloaded(preloaded);
    return answer ? { ...outcomeOfAnswer<T>(answer), status: 'done' } : { status: 'loading' };
  });
  const [attempt, setAttempt] = useState(0);
  const shown = useRef<unknown[] | null>(null);
  useEffect(() => {
    let current = true;
    // The same keys as the content shown (the first render's, or another login): keep it meanwhile.
    const now = [...keys, attempt];
    const same = shown.current === null ? state.status === 'done' : shown.current.every((key, at) => key === now[at]);
    shown.current = now;
    if (!same) setState({ status: 'loading' });
    load().then((result) => {
      if (current) setState({ ...result, status: 'done' });
    });
    return () => {
      current = false;
    };
  }, [...keys, token, attempt]);
  const reload = useCallback(() => setAttempt((n) => n + 1), []);
  return { state, reload };
}

/** A form's submission: whether it is under way, and the field errors and failure of the last one. */
export interface Submission {
  busy: boolean;
  errors: FieldErrors;
  failure: Failure | null;
  /** Sends the form (`send` answers its failure, or null on success); the field errors and failure follow its answer. */
  run: (send: () => Promise<Failure | null>) => Promise<void>;
}

export function useSubmission(): Submission {
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [failure, setFailure] = useState<Failure | null>(null);
  const run = async (send: () => Promise<Failure | null>) => {
    setBusy(true);
    setFailure(null);
    const result = await send();
    setBusy(false);
    setErrors(result?.kind === 'invalid' ? result.fields : {});
    setFailure(result);
  };
  return { busy, errors, failure, run };
}

/**
 * A checkbox saved as it changes: it shows the reader's choice at once while the request runs
 * (a re-render must not undo the click), then what is stored: the new value, or the old one when
 * the save was refused. A click while a save runs is undone.
 */
export function useSavedCheckbox(stored: boolean, save: (value: boolean) => Promise<void>) {
  const [pending, setPending] = useState<boolean | null>(null);
  const checked = pending ?? stored;
  const onChange = (event: Event) => {
    const box = event.currentTarget as HTMLInputElement;
    if (pending !== null) {
      box.checked = checked;
      return;
    }
    const value = box.checked;
    setPending(value);
    void save(value).finally(() => setPending(null));
  };
  return { checked, busy: pending !== null, onChange };
}
