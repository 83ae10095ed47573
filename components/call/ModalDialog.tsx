'use client';

import { useEffect, useId, useRef } from 'react';

/**
 * The browser's own modal <dialog> (focus kept inside, Escape closes, the page behind inert),
 * opened and closed by `open`, titled by `title`; the caller's buttons go in `children`.
 */
export function ModalDialog({
  open,
  title,
  onClose,
  width = '24rem',
  children,
}: {
  open: boolean;
  title: string;
  onClose: () => void;
  width?: '24rem' | '26rem';
  children: React.ReactNode;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);
  return (
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      onClose={onClose}
      className={`m-auto ${width === '26rem' ? 'w-[min(26rem,calc(100vw-2rem))]' : 'w-[min(24rem,calc(100vw-2rem))]'} rounded-lg bg-slate-900 p-5 text-sm text-white shadow-xl backdrop:bg-black/60`}
    >
      <h2 id={titleId} className="text-base font-semibold">
        {title}
      </h2>
      {children}
    </dialog>
  );
}
