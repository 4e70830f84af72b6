/** A confirmation asked before a destructive action, in a native modal dialog (focus trapped, Escape closes, focus returns). */
import type { ComponentChildren } from 'preact';
import { useEffect, useRef } from 'preact/hooks';
import { Button } from '../../components/ui';

/** Open while `open`; `onConfirm` runs the action, `onClose` closes without it (Escape, Keep, the backdrop). */
export function ConfirmDialog(props: {
  open: boolean;
  title: string;
  children: ComponentChildren;
  confirmLabel: string;
  cancelLabel?: string;
  busy?: boolean;
  onConfirm: () => void;
  onClose: () => void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const opener = useRef<Element | null>(null);
  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (props.open && !element.open) {
      opener.current = document.activeElement;
      element.showModal();
    } else if (!props.open && element.open) {
      element.close();
    }
  }, [props.open]);
  const onClose = () => {
    // The keyboard goes back to the button that opened the dialog.
    if (opener.current instanceof HTMLElement) opener.current.focus();
    if (props.open) props.onClose();
  };
  return (
    <dialog ref={dialog} aria-labelledby="confirm-title" onClose={onClose}>
      <h2 id="confirm-title">{props.title}</h2>
      <div class="dialog-body">{props.children}</div>
      <div class="actions dialog-actions">
        <Button variant="danger" busy={props.busy} onClick={props.onConfirm}>
          {props.confirmLabel}
        </Button>
        <Button onClick={() => dialog.current?.close()}>{props.cancelLabel ?? 'Keep it'}</Button>
      </div>
    </dialog>
  );
}
