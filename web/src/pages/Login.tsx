import { useLocation } from 'preact-iso';
import { api, outcome } from '../api/client.ts';
import { session } from '../api/session.ts';
import { AccountForm } from '../components/AccountForm.tsx';
import { useTitle } from '../hooks.ts';
import { paths, safeNext, withQuery } from '../paths.ts';

/** `/login`: logged in, back to the page the person came from (`?next=`), else `/`. */
export default function Login() {
  useTitle('Log in');
  const { route, query } = useLocation();
  const next = safeNext(query.next);
  const send = async (username: string, password: string) => {
    const result = await outcome(() => api.POST('/login', { body: { username, password } }));
    if (!result.ok) return result.failure;
    session.login(result.data.token, username.trim());
    route(next, true);
    return null;
  };
  return (
    <>
      <h1>Log in</h1>
      <AccountForm action="Log in" send={send} />
      <p>
        New here? <a href={withQuery(paths.signup, { next: query.next })}>Create an account</a>
      </p>
    </>
  );
}
