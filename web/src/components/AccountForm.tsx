import { useState } from 'preact/hooks';
import type { Failure } from '../api/client.ts';
import { useSubmission } from '../hooks.ts';
import { Field, otherErrors } from './Field.tsx';
import { FormAlert } from './Problem.tsx';

interface Props {
  action: 'Log in' | 'Sign up';
  /** Sends username and password; a failure is shown. */
  send: (username: string, password: string) => Promise<Failure | null>;
}

/** Username and password, as login and sign-up ask for them. */
export function AccountForm({ action, send }: Props) {
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const { busy, errors, failure, run } = useSubmission();

  const submit = () => run(() => send(username, password));
  const other = otherErrors(errors, ['username', 'password']);

  return (
    <form
      class="form narrow"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <Field name="username" label="Username" value={username} onInput={setUsername} errors={errors} autoComplete="username" />
      <Field
        name="password"
        label="Password"
        type="password"
        value={password}
        onInput={setPassword}
        errors={errors}
        autoComplete={action === 'Sign up' ? 'new-password' : 'current-password'}
      />
      <FormAlert messages={other} failure={failure} onRetry={() => void submit()} />
      <div class="actions">
        <button type="submit" disabled={busy}>
          {action}
        </button>
      </div>
    </form>
  );
}
