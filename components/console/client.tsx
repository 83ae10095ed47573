'use client';

import { useState, useTransition } from 'react';
import { useRouter } from 'next/navigation';
import { toast } from 'sonner';
import type { ActionResult } from '@/app/console/actions';
import { dangerButton, primaryButton, secondaryButton } from '@/components/console/ui';

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

/** A secret shown exactly once, with a copy button. */
export function RevealOnce({ label, value, onDismiss }: { label: string; value: string; onDismiss: () => void }) {
  const [copied, setCopied] = useState(false);
  return (
    <div
      role="alert"
      className="my-4 rounded-lg border border-amber-300 bg-amber-50 p-4 text-sm text-amber-950 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100"
    >
      <p className="font-medium">{label} — copy it now; it will not be shown again.</p>
      <div className="mt-2 flex flex-wrap items-center gap-2">
        <code
          data-testid="revealed-secret"
          className="break-all rounded bg-white px-2 py-1 font-mono text-slate-900 dark:bg-slate-900 dark:text-slate-100"
        >
          {value}
        </code>
        <button
          type="button"
          className={secondaryButton}
          onClick={() =>
            navigator.clipboard?.writeText(value).then(
              () => setCopied(true),
              () => toast.error('Copy failed: select the text and copy it by hand.'),
            )
          }
        >
          {copied ? 'Copied' : 'Copy'}
        </button>
        <button type="button" className={secondaryButton} onClick={onDismiss}>
          Done
        </button>
      </div>
    </div>
  );
}

export const GRACE_CHOICES = [
  { seconds: 0, label: 'Immediately' },
  { seconds: 3600, label: '1 hour' },
  { seconds: 86_400, label: '24 hours' },
  { seconds: 604_800, label: '7 days' },
];

export function GraceSelect({
  id,
  value,
  onChange,
  label = 'Old key keeps working for',
}: {
  id: string;
  value: number;
  onChange: (v: number) => void;
  label?: string;
}) {
  return (
    <label htmlFor={id} className="inline-flex items-center gap-2 text-sm">
      {label}
      <select
        id={id}
        value={value}
        onChange={(e) => onChange(Number(e.target.value))}
        className="rounded-md border border-slate-300 bg-white px-2 py-1 dark:border-slate-700 dark:bg-slate-900"
      >
        {GRACE_CHOICES.map((c) => (
          <option key={c.seconds} value={c.seconds}>
            {c.label}
          </option>
        ))}
      </select>
    </label>
  );
}
