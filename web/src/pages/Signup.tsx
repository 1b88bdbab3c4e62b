import { useLocation } from 'preact-iso';
import { api, outcome } from '../api/client.ts';
import { session } from '../api/session.ts';
import { AccountForm } from '../components/AccountForm.tsx';
import { useTitle } from '../hooks.ts';
import { loginFor, safeNext } from '../paths.ts';

/** `/signup`: a new account, logged in at once, back where the person came from. */
export default function Signup() {
  useTitle('Sign up');
  const { route, query } = useLocation();
  const send = async (username: string, password: string) => {
    const result = await outcome(() => api.POST('/users', { body: { username, password } }));
    if (!result.ok) return result.failure;
    session.login(result.data.token, result.data.username);
    route(safeNext(query.next), true);
    return null;
  };
  return (
    <>
      <h1>Sign up</h1>
      <AccountForm action="Sign up" send={send} />
      <p>
        Have an account? <a href={loginFor(safeNext(query.next))}>Log in instead</a>
      </p>
    </>
  );
}
