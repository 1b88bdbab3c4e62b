import { useCallback, useEffect, useState } from 'preact/hooks';
import { moderates } from './api/account.ts';
import type { Failure, FieldErrors, Outcome } from './api/client.ts';
import { session, type Session } from './api/session.ts';

/** The session, re-rendering on login, logout, a refused token or another tab's change. */
export function useSession(): Session {
  const [state, setState] = useState(session.get());
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

const SITE_NAME = 'Community Posts';

/** The document title names the page's subject, then the site. */
export function useTitle(subject: string | null): void {
  useEffect(() => {
    if (subject !== null) document.title = subject === SITE_NAME ? SITE_NAME : `${subject} · ${SITE_NAME}`;
  }, [subject]);
}

/** The page's meta description while it is shown (a post's own), else the site's. */
export function useMetaDescription(text: string | null): void {
  useEffect(() => {
    const meta = document.querySelector<HTMLMetaElement>('meta[name="description"]');
    if (!meta || text === null) return;
    const site = meta.content;
    meta.content = text;
    return () => {
      meta.content = site;
    };
  }, [text]);
}

export type Loaded<T> = { status: 'loading' } | (Outcome<T> & { status: 'done' });

/**
 * Loads what a page shows, again when `keys` (or the login) change; `reload` asks again (the
 * "Retry" button). The token is one of the keys: a refused token is forgotten and the page is
 * asked again as a visitor.
 */
export function useLoad<T>(load: () => Promise<Outcome<T>>, keys: unknown[]): { state: Loaded<T>; reload: () => void } {
  const { token } = useSession();
  const [state, setState] = useState<Loaded<T>>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    let current = true;
    setState({ status: 'loading' });
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
