import { useState } from 'preact/hooks';
import { api, outcome, type Profile } from '../api/client.ts';
import { Content } from '../components/Content.tsx';
import { Field, otherErrors } from '../components/Field.tsx';
import { RequireAccount } from '../components/Gates.tsx';
import { FormAlert } from '../components/Problem.tsx';
import { SettingsTabs } from '../components/SettingsTabs.tsx';
import { useLoad, useSession, useSubmission, useTitle } from '../hooks.ts';

const FIELDS = [
  { name: 'display_name', label: 'Display name' },
  { name: 'location', label: 'Location' },
  { name: 'about_me', label: 'About me', multiline: true },
  { name: 'website', label: 'Website', type: 'url' },
  { name: 'twitter', label: 'Twitter' },
  { name: 'linkedin', label: 'LinkedIn' },
  { name: 'github', label: 'GitHub', type: 'url' },
  // A text field, not type=date: any value reaches the API, and its words say what is wrong.
  { name: 'birth_date', label: 'Birth date', hint: 'As YYYY-MM-DD, for example 1990-04-01.' },
] as const;

type Name = (typeof FIELDS)[number]['name'];
type Values = Record<Name, string>;

/** `/settings/profile`: the caller edits their profile. */
export default function SettingsProfile() {
  useTitle('Profile settings');
  return (
    <RequireAccount>
      <h1>Profile settings</h1>
      <SettingsTabs />
      <ProfileLoader />
    </RequireAccount>
  );
}

function ProfileLoader() {
  const { username } = useSession();
  const { state, reload } = useLoad(() => outcome(() => api.GET('/users/detail/{username}', { params: { path: { username: username ?? '' } } })), [username]);
  return (
    <Content state={state} reload={reload}>
      {(profile) => <ProfileForm profile={profile} />}
    </Content>
  );
}

function valuesOf(profile: Profile): Values {
  const values = {} as Values;
  for (const { name } of FIELDS) values[name] = profile[name] ?? '';
  return values;
}

function ProfileForm({ profile }: { profile: Profile }) {
  const [values, setValues] = useState<Values>(valuesOf(profile));
  const [saved, setSaved] = useState(false);
  const { busy, errors, failure, run } = useSubmission();

  const submit = () =>
    run(async () => {
      setSaved(false);
      // A blank birth date is no date (null); other blanks are stored as "" (allowed).
      const body = { ...values, birth_date: values.birth_date.trim() === '' ? null : values.birth_date };
      const result = await outcome(() => api.PUT('/users/detail/{username}', { params: { path: { username: profile.user } }, body }));
      if (!result.ok) return result.failure;
      setValues(valuesOf(result.data));
      setSaved(true);
      return null;
    });
  const other = otherErrors(
    errors,
    FIELDS.map((f) => f.name),
  );

  return (
    <form
      class="form"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      {FIELDS.map((field) => (
        <Field
          key={field.name}
          name={field.name}
          label={field.label}
          value={values[field.name]}
          onInput={(value) => setValues((v) => ({ ...v, [field.name]: value }))}
          errors={errors}
          type={'type' in field ? field.type : 'text'}
          multiline={'multiline' in field}
          {...('hint' in field ? { hint: field.hint } : {})}
        />
      ))}
      <FormAlert messages={other} failure={failure} onRetry={() => void submit()} />
      {saved && (
        <p class="success" role="status">
          Your profile is saved.
        </p>
      )}
      <div class="actions">
        <button type="submit" disabled={busy}>
          Save
        </button>
      </div>
    </form>
  );
}
