'use client';

import { useState } from 'react';
import type { ActionResult } from '@/app/console/actions';
import { ActionButton } from '@/components/console/ActionButton';
import { GraceSelect } from '@/components/console/GraceSelect';
import { RevealOnce } from '@/components/console/RevealOnce';

/**
 * Rotating a webhook signing secret: how long the old secret keeps signing, the rotate button
 * (after `children`, in the same row), and the new secret shown once. The wording is the caller's:
 * a tenant rotates its own secret, a reseller one of its tenants'.
 */
export function WebhookSecretRotation({
  id,
  rotate,
  canManage,
  label,
  confirm,
  success,
  disabledReason,
  revealLabel,
  className = '',
  children,
}: {
  id: string;
  rotate: (input: { overlapSeconds: number }) => Promise<ActionResult<{ webhookSecret: string }>>;
  canManage: boolean;
  label: string;
  confirm: string;
  success: string;
  disabledReason: string;
  revealLabel: string;
  className?: string;
  children?: React.ReactNode;
}) {
  const [overlap, setOverlap] = useState(86_400);
  const [secret, setSecret] = useState<string | null>(null);
  return (
    <>
      <div className={`flex flex-wrap items-center gap-3 ${className}`}>
        {children}
        <GraceSelect id={id} value={overlap} onChange={setOverlap} label="Old secret keeps signing for" />
        <ActionButton
          label={label}
          confirm={confirm}
          success={success}
          disabled={!canManage}
          disabledReason={disabledReason}
          action={() => rotate({ overlapSeconds: overlap })}
          onDone={(d) => setSecret(d.webhookSecret)}
        />
      </div>
      {secret && <RevealOnce label={revealLabel} value={secret} onDismiss={() => setSecret(null)} />}
    </>
  );
}
