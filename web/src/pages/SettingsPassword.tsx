import { useState } from 'preact/hooks';
import { api, outcome } from '../api/client.ts';
import { Field, otherErrors } from '../components/Field.tsx';
import { RequireAccount } from '../components/Gates.tsx';
import { FormAlert } from '../components/Problem.tsx';
import { SettingsTabs } from '../components/SettingsTabs.tsx';
import { useSession, useSubmission, useTitle } from '../hooks.ts';

/** `/settings/password`: the caller changes their password (their other logins end). */
export default function SettingsPassword() {
  useTitle('Change password');
  return (
    <RequireAccount>
      <h1>Change password</h1>
      <SettingsTabs />
      <PasswordForm />
    </RequireAccount>
  );
}

function PasswordForm() {
  const { username } = useSession();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [done, setDone] = useState<string | null>(null);
  const { busy, errors, failure, run } = useSubmission();

  const submit = () =>
    run(async () => {
      setDone(null);
      const result = await outcome(() =>
        api.POST('/users/detail/{username}/password', {
          params: { path: { username: username ?? '' } },
          body: { old_password: current, new_password: next },
        }),
      );
      if (!result.ok) return result.failure;
      setCurrent('');
      setNext('');
      setDone(`${result.data.detail} Your other logins have ended; this one stays.`);
      return null;
    });
  const other = otherErrors(errors, ['old_password', 'new_password']);

  return (
    <form
      class="form narrow"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <Field
        name="old_password"
        label="Current password"
        type="password"
        value={current}
        onInput={setCurrent}
        errors={errors}
        autoComplete="current-password"
      />
      <Field name="new_password" label="New password" type="password" value={next} onInput={setNext} errors={errors} autoComplete="new-password" />
      <FormAlert messages={other} failure={failure} onRetry={() => void submit()} />
      {done && (
        <p class="success" role="status">
          {done}
        </p>
      )}
      <div class="actions">
        <button type="submit" disabled={busy}>
          Change password
        </button>
      </div>
    </form>
  );
}
