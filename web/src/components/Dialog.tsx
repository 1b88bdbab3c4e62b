import { useEffect, useRef, useState } from 'preact/hooks';
import { createPortal } from 'preact/compat';

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
    const closed = () => closing.current();
    element?.addEventListener('close', closed);
    return () => {
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
