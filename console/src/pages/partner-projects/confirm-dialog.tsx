/** A confirmation asked before a destructive action, in a native modal dialog (focus is kept inside and returns after). */
import type { ComponentChildren } from 'preact';
import { useEffect, useRef } from 'preact/hooks';
import { Button } from '../../components/ui';

/** A modal that asks to confirm; shown while `open`, `onClose(true)` when confirmed. */
export function ConfirmDialog(props: { open: boolean; title: string; confirm: string; children: ComponentChildren; onClose: (confirmed: boolean) => void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const d = dialog.current;
    if (!d) return;
    if (props.open && !d.open) d.showModal();
    if (!props.open && d.open) d.close();
  }, [props.open]);
  return (
    // Escape closes a native dialog: that is a "no".
    <dialog ref={dialog} aria-labelledby="confirm-title" onCancel={() => props.onClose(false)}>
      <h2 id="confirm-title">{props.title}</h2>
      <div class="dialog-body">{props.children}</div>
      <div class="actions dialog-actions">
        <Button onClick={() => props.onClose(false)}>Cancel</Button>
        <Button variant="danger" onClick={() => props.onClose(true)}>
          {props.confirm}
        </Button>
      </div>
    </dialog>
  );
}
