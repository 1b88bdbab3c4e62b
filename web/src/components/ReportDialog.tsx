import { useState } from 'preact/hooks';
import type { Failure, ReportReason } from '../api/client.ts';
import { useSubmission } from '../hooks.ts';
import { Dialog } from './Dialog.tsx';
import { Field, otherErrors } from './Field.tsx';
import { FormAlert } from './Problem.tsx';

const REASONS: { value: ReportReason; label: string }[] = [
  { value: 'spam', label: 'Spam' },
  { value: 'abuse', label: 'Abuse' },
  { value: 'off-topic', label: 'Off-topic' },
  { value: 'other', label: 'Other' },
];

/** The words for a report's reason, as the dialog offers them. */
export const reasonLabel = (reason: ReportReason): string => REASONS.find((r) => r.value === reason)?.label ?? reason;

interface Props {
  /** "Report this post" or "Report this comment". */
  title: string;
  /** Sends the report; a failure is shown in the dialog, null closes it. */
  send: (reason: ReportReason | undefined, note: string) => Promise<Failure | null>;
  onClose: () => void;
}

/**
 * A report of a post or a comment: the reason (radios), an optional note, "Send report". Nothing
 * is chosen at first; the API's own words say what is missing.
 */
export function ReportDialog({ title, send, onClose }: Props) {
  const [reason, setReason] = useState<ReportReason | undefined>(undefined);
  const [note, setNote] = useState('');
  const { busy, errors, failure, run } = useSubmission();
  const submit = () => run(() => send(reason, note));
  const reasonErrors = errors.reason ?? [];
  return (
    <Dialog title={title} onClose={onClose}>
      <form
        class="form"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        <fieldset class="reasons" aria-describedby={reasonErrors.length > 0 ? 'report-reason-errors' : undefined}>
          <legend>Reason</legend>
          {REASONS.map((option) => (
            <div class="field checkbox" key={option.value}>
              <input
                type="radio"
                id={`report-reason-${option.value}`}
                name="reason"
                value={option.value}
                checked={reason === option.value}
                onChange={() => setReason(option.value)}
              />
              <label for={`report-reason-${option.value}`}>{option.label}</label>
            </div>
          ))}
          {reasonErrors.length > 0 && (
            <ul class="field-errors" id="report-reason-errors">
              {reasonErrors.map((message) => (
                <li key={message}>{message}</li>
              ))}
            </ul>
          )}
        </fieldset>
        <Field
          name="note"
          id="report-note"
          label="Note"
          value={note}
          onInput={setNote}
          errors={errors}
          multiline
          rows={3}
          hint="Optional: what is wrong with it."
        />
        <FormAlert messages={otherErrors(errors, ['reason', 'note'])} failure={failure} onRetry={() => void submit()} />
        <div class="actions">
          <button type="submit" disabled={busy}>
            Send report
          </button>
          <button type="button" class="secondary" onClick={onClose}>
            Cancel
          </button>
        </div>
      </form>
    </Dialog>
  );
}
