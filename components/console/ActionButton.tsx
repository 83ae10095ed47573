'use client';

import { useState, useTransition } from 'react';
import { useRouter } from 'next/navigation';
import { toast } from 'sonner';
import type { ActionResult } from '@/app/console/actions';
import { dangerButton, primaryButton, secondaryButton } from '@/components/console/styles';

/**
 * A button that runs one server action: pending label while it runs, a toast with the result,
 * an inline confirmation step for destructive actions, and a refresh of the server-rendered page.
 */
export function ActionButton<T>({
  action,
  label,
  pendingLabel,
  success,
  confirm,
  tone = 'secondary',
  disabled,
  disabledReason,
  onDone,
}: {
  action: () => Promise<ActionResult<T>>;
  label: string;
  pendingLabel?: string;
  success: string | ((data: T) => string);
  confirm?: string;
  tone?: 'primary' | 'secondary' | 'danger';
  disabled?: boolean;
  disabledReason?: string;
  onDone?: (data: T) => void;
}) {
  const router = useRouter();
  const [pending, start] = useTransition();
  const [confirming, setConfirming] = useState(false);
  const cls = tone === 'primary' ? primaryButton : tone === 'danger' ? dangerButton : secondaryButton;

  const run = () =>
    start(async () => {
      setConfirming(false);
      const result = await action();
      if (result.ok) {
        toast.success(typeof success === 'function' ? success(result.data) : success);
        onDone?.(result.data);
        router.refresh();
      } else {
        toast.error(result.message);
      }
    });

  if (confirming) {
    return (
      <span role="group" aria-label={confirm} className="inline-flex items-center gap-2">
        <span className="text-sm">{confirm}</span>
        <button type="button" className={dangerButton} onClick={run} autoFocus>
          Confirm
        </button>
        <button type="button" className={secondaryButton} onClick={() => setConfirming(false)}>
          Cancel
        </button>
      </span>
    );
  }
  return (
    <button
      type="button"
      className={cls}
      disabled={disabled || pending}
      title={disabled ? disabledReason : undefined}
      aria-busy={pending}
      onClick={() => (confirm ? setConfirming(true) : run())}
    >
      {pending ? (pendingLabel ?? `${label}…`) : label}
    </button>
  );
}
