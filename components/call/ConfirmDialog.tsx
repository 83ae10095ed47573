'use client';

import { focusRing } from '@/components/call/focus-ring';
import { useT } from '@/components/call/useT';
import { ModalDialog } from '@/components/call/ModalDialog';

/**
 * A modal question before an action that cannot be undone (removing someone, ending the meeting):
 * Escape cancels. Cancel has the focus first, so a stray Enter does not confirm.
 */
export function ConfirmDialog({
  open,
  title,
  body,
  confirmLabel,
  onConfirm,
  onClose,
}: {
  open: boolean;
  title: string;
  body: string;
  confirmLabel: string;
  onConfirm: () => void;
  onClose: () => void;
}) {
  const t = useT();
  return (
    <ModalDialog open={open} title={title} onClose={onClose}>
      <p className="mt-2 text-slate-300">{body}</p>
      <div className="mt-4 flex justify-end gap-2">
        <button type="button" autoFocus onClick={onClose} className={`rounded bg-slate-700 px-3 py-1.5 ${focusRing}`}>
          {t.hostActions.cancel}
        </button>
        <button
          type="button"
          onClick={() => {
            onClose();
            onConfirm();
          }}
          className={`rounded bg-red-700 px-3 py-1.5 font-medium ${focusRing}`}
        >
          {confirmLabel}
        </button>
      </div>
    </ModalDialog>
  );
}
