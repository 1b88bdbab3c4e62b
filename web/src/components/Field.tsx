import type { FieldErrors } from '../api/client.ts';

interface Props {
  /** The API's field name: its errors are shown under the field. */
  name: string;
  label: string;
  value: string;
  onInput: (value: string) => void;
  errors: FieldErrors;
  type?: 'text' | 'password' | 'url' | 'date';
  multiline?: boolean;
  rows?: number;
  autoComplete?: string;
  hint?: string;
  /** The element's id, when the page has several fields of this name (default `field-<name>`). */
  id?: string;
}

/** A labelled field with the API's own words for what is wrong with it, right under it. */
export function Field({ name, label, value, onInput, errors, type = 'text', multiline = false, rows = 4, autoComplete, hint, id = `field-${name}` }: Props) {
  const messages = errors[name] ?? [];
  const describedBy = [hint ? `${id}-hint` : '', messages.length > 0 ? `${id}-errors` : ''].filter(Boolean).join(' ') || undefined;
  const common = {
    id,
    name,
    value,
    'aria-invalid': messages.length > 0 ? ('true' as const) : undefined,
    'aria-describedby': describedBy,
    onInput: (event: Event) => onInput((event.currentTarget as HTMLInputElement | HTMLTextAreaElement).value),
  };
  return (
    <div class="field">
      <label for={id}>{label}</label>
      {hint && (
        <p class="hint" id={`${id}-hint`}>
          {hint}
        </p>
      )}
      {multiline ? (
        <textarea {...common} rows={rows} />
      ) : (
        // Preact's types narrow `type` per kind of input; these kinds all take the attributes given.
        <input {...common} type={type as 'text'} autoComplete={autoComplete} />
      )}
      {messages.length > 0 && (
        <ul class="field-errors" id={`${id}-errors`}>
          {messages.map((message) => (
            <li key={message}>{message}</li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** Messages that belong to no field: `non_field_errors`, and fields this form does not show. */
export function otherErrors(errors: FieldErrors, shown: string[]): string[] {
  return Object.entries(errors)
    .filter(([name]) => !shown.includes(name))
    .flatMap(([, messages]) => messages);
}
