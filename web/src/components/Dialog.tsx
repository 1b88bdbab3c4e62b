import { useEffect, useRef, useState } from 'preact/hooks';
import { createPortal } from 'preact/compat';
import type { Failure } from '../api/client.ts';
import { Alert, describe } from './Problem.tsx';

let dialogs = 0;

interface Props {
  /** The dialog's heading, and so its accessible name. */
  title: string;
  /** Closed by Escape, by a button of its own, or by the page: the caller stops rendering it. */
  onClose: () => void;
  children: preact.ComponentChildren;
}

/**
 * A modal dialog, open while it is rendered: named by its heading, outside `main` (a landmark of
 * its own, so its buttons' names are not main's), the focus inside it while open and back on the
 * control that opened it afterwards.
 */
export function Dialog({ title, onClose, children }: Props) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [id] = useState(() => `dialog-${++dialogs}`);
  const closing = useRef(onClose);
  closing.current = onClose;
  useEffect(() => {
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const element = dialog.current;
    element?.showModal();
    // Escape fires 'cancel' at once and 'close' only at the next frame, when the caller may have
    // opened a new dialog already: the first of the two closes this one, and only once. Closing it
    // here, before the caller's render detaches it, gives the focus back to the opener at once.
    let done = false;
    const closed = () => {
      if (done) return;
      done = true;
      if (element?.open) element.close();
      closing.current();
    };
    element?.addEventListener('cancel', closed);
    element?.addEventListener('close', closed);
    return () => {
      element?.removeEventListener('cancel', closed);
      element?.removeEventListener('close', closed);
      if (element?.open) element.close();
      if (opener?.isConnected) opener.focus();
    };
  }, []);
  return createPortal(
    <dialog ref={dialog} aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{title}</h2>
      {children}
    </dialog>,
    document.body,
  );
}

/**
 * A dialog asking to confirm an action: its words, the action's button and "Cancel" (focused
 * first, so Enter destroys nothing). A refusal shows inside it, in the API's words; the caller
 * closes it on success.
 */
export function ConfirmDialog({ title, action, onConfirm, onClose, children }: Props & { action: string; onConfirm: () => Promise<Failure | null> }) {
  const [failure, setFailure] = useState<Failure | null>(null);
  const [busy, setBusy] = useState(false);
  return (
    <Dialog title={title} onClose={onClose}>
      {children}
      {failure && (
        <Alert>
          <p>{describe(failure)}</p>
        </Alert>
      )}
      <div class="actions">
        <button
          type="button"
          class="danger"
          aria-disabled={busy ? 'true' : undefined}
          onClick={async () => {
            if (busy) return;
            setBusy(true);
            setFailure(null);
            const refused = await onConfirm();
            setBusy(false);
            setFailure(refused);
          }}
        >
          {action}
        </button>
        <button type="button" onClick={onClose} autoFocus>
          Cancel
        </button>
      </div>
    </Dialog>
  );
}
