/** A confirmation asked before a destructive action (remove, rotate, recreate): a native modal dialog. */
import type { ComponentChildren } from 'preact';
import { useEffect, useRef } from 'preact/hooks';
import { Button } from './ui';

let dialogs = 0;

/**
 * Asks before `onConfirm`; open while `open`. Escape or Cancel calls `onCancel`. The keyboard focus
 * goes into the dialog when it opens and back to what had it when it closes.
 */
export function ConfirmDialog(props: {
  open: boolean;
  title: string;
  children: ComponentChildren;
  confirmLabel: string;
  /** The label of the button that keeps things as they are. @default Cancel */
  cancelLabel?: string;
  busy?: boolean;
  variant?: 'danger' | 'primary';
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const opener = useRef<HTMLElement | null>(null);
  const id = useRef(`confirm-${++dialogs}`).current;
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (props.open && !dialog.open) {
      opener.current = document.activeElement as HTMLElement | null;
      dialog.showModal();
    } else if (!props.open && dialog.open) {
      dialog.close();
    }
  }, [props.open]);
  const closed = () => {
    const back = opener.current;
    opener.current = null;
    // The opener may be gone (its row removed): then the page's main region takes the focus.
    if (back?.isConnected) back.focus();
    else document.getElementById('main')?.focus();
    if (props.open) props.onCancel();
  };
  return (
    <dialog ref={ref} aria-labelledby={`${id}-title`} aria-describedby={`${id}-body`} onClose={closed}>
      <h2 id={`${id}-title`}>{props.title}</h2>
      <div id={`${id}-body`} class="dialog-body">
        {props.children}
      </div>
      <div class="actions dialog-actions">
        <Button onClick={props.onCancel}>{props.cancelLabel ?? 'Cancel'}</Button>
        <Button variant={props.variant ?? 'danger'} busy={props.busy} onClick={props.onConfirm}>
          {props.confirmLabel}
        </Button>
      </div>
    </dialog>
  );
}
