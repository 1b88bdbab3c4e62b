// Who is logged in, in this browser. The token lives in localStorage so that a reload (and a new
// tab) keeps the login; docs/security.md explains the choice. What ends it: logging out, any 401
// to a request that carried it (expired, revoked, password changed elsewhere), and another tab
// logging out (the `storage` event).

const TOKEN_KEY = 'community-posts.token';
const USERNAME_KEY = 'community-posts.username';

export interface Session {
  token: string | null;
  username: string | null;
  /** True once a token was refused: the pages say the session ended until the next login. */
  ended: boolean;
}

/** Nobody logged in: a visitor (and every page the server renders). */
export const VISITOR: Session = { token: null, username: null, ended: false };

type Listener = (session: Session) => void;

function stored(): Session {
  try {
    const token = localStorage.getItem(TOKEN_KEY);
    const username = localStorage.getItem(USERNAME_KEY);
    return token && username ? { token, username, ended: false } : { token: null, username: null, ended: false };
  } catch {
    return { token: null, username: null, ended: false };
  }
}

let current: Session = stored();
const listeners = new Set<Listener>();

function set(next: Session): void {
  current = next;
  for (const listener of listeners) listener(current);
}

function store(token: string | null, username: string | null): void {
  try {
    if (token && username) {
      localStorage.setItem(TOKEN_KEY, token);
      localStorage.setItem(USERNAME_KEY, username);
    } else {
      localStorage.removeItem(TOKEN_KEY);
      localStorage.removeItem(USERNAME_KEY);
    }
  } catch {
    // Storage refused (private mode): the login lasts as long as the page.
  }
}

export const session = {
  get: (): Session => current,
  login(token: string, username: string): void {
    store(token, username);
    set({ token, username, ended: false });
  },
  logout(): void {
    store(null, null);
    set({ token: null, username: null, ended: false });
  },
  /** The API refused `token`: forget it, unless a newer login has replaced it meanwhile. */
  expire(token: string): void {
    if (current.token !== token) return;
    store(null, null);
    set({ token: null, username: null, ended: true });
  },
  dismissEnded(): void {
    if (current.ended) set({ ...current, ended: false });
  },
  subscribe(listener: Listener): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};

// Another tab logged in or out: this one follows, so no tab keeps using a revoked token.
// The server renders without a window (web/src/server.tsx): no storage, a visitor's session.
if (typeof window !== 'undefined')
  window.addEventListener('storage', (event) => {
    if (event.key !== null && event.key !== TOKEN_KEY && event.key !== USERNAME_KEY) return;
    const next = stored();
    if (next.token !== current.token || next.username !== current.username) set(next);
  });
