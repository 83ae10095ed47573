'use client';

import { useState } from 'react';
import { toast } from 'sonner';
import { secondaryButton } from '@/components/console/styles';

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
