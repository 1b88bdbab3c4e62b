import type { Failure } from '../api/client.ts';

/**
 * Words for a failure the page itself does not handle, and what the person can do about it;
 * `typed`: the failure of a form, whose fields keep what was typed.
 */
export function describe(failure: Failure, typed = false): string {
  switch (failure.kind) {
    case 'unavailable':
      return typed ? `${failure.message} What you typed is kept: try again.` : `${failure.message} Try again.`;
    case 'rate-limited':
      return failure.retryAfter !== null
        ? `Too many requests. Try again in ${failure.retryAfter} second${failure.retryAfter === 1 ? '' : 's'}.`
        : `Too many requests. Try again in a moment.`;
    case 'conflict':
      return failure.message;
    default:
      return failure.message ?? 'Something went wrong.';
  }
}

/**
 * A failure, in an element with role="alert"; with a "Retry" button when trying again may help
 * (no network, a 5xx).
 */
export function Problem({ failure, onRetry }: { failure: Failure; onRetry?: () => void }) {
  return (
    <div class="alert" role="alert">
      <p>{describe(failure)}</p>
      {failure.kind === 'unavailable' && onRetry && (
        <button type="button" onClick={onRetry}>
          Retry
        </button>
      )}
    </div>
  );
}

/** A message for an element with role="alert" (a `detail` or `non_field_errors` of the API). */
export function Alert({ children }: { children: preact.ComponentChildren }) {
  return (
    <div class="alert" role="alert">
      {children}
    </div>
  );
}

interface FormAlertProps {
  messages: readonly string[];
  failure: Failure | null;
  onRetry: () => void;
  /** What the form says to a 409 (the words and a way to reload), in place of the API's words. */
  conflict?: preact.ComponentChildren;
}

/**
 * What a form's submission got wrong beyond its fields, in one role="alert": the API's messages
 * for no field of the form (`detail`, `non_field_errors`, ...) and the failure's words; "Retry"
 * when trying again may help (no network, a 5xx). Nothing when there is nothing to say.
 */
export function FormAlert({ messages, failure, onRetry, conflict }: FormAlertProps) {
  const ownConflict = failure?.kind === 'conflict' && conflict !== undefined;
  const message = failure && !ownConflict && (failure.kind !== 'invalid' ? describe(failure, true) : failure.message);
  if (messages.length === 0 && !message && !ownConflict) return null;
  return (
    <div class="alert" role="alert">
      {messages.map((text) => (
        <p key={text}>{text}</p>
      ))}
      {message && <p>{message}</p>}
      {ownConflict && conflict}
      {failure?.kind === 'unavailable' && (
        <button type="button" onClick={onRetry}>
          Retry
        </button>
      )}
    </div>
  );
}

/** A part of the site (a chunk of code) that failed to load, and "Retry". */
export function PartFailed({ subject, onRetry }: { subject: string; onRetry: () => void }) {
  return (
    <Alert>
      <p>{subject} cannot be shown: part of the site did not load. Check your connection and try again.</p>
      <button type="button" onClick={onRetry}>
        Retry
      </button>
    </Alert>
  );
}
