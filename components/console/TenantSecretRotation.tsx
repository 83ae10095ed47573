'use client';

import { useState } from 'react';
import type { ActionResult } from '@/app/console/actions';
import { ActionButton, GraceSelect, RevealOnce } from '@/components/console/client';

export function TenantSecretRotation({
  canManage,
  configured,
  rotate,
}: {
  canManage: boolean;
  configured: boolean;
  rotate: (input: { overlapSeconds: number }) => Promise<ActionResult<{ webhookSecret: string }>>;
}) {
  const [overlap, setOverlap] = useState(86_400);
  const [secret, setSecret] = useState<string | null>(null);
  return (
    <div>
      <p className="mb-3 text-sm">
        {configured ? 'A signing secret is set.' : 'No signing secret yet.'} During the overlap both the old and the new
        secret sign each delivery.
      </p>
      <div className="flex flex-wrap items-center gap-3">
        <GraceSelect id="tenant-overlap" value={overlap} onChange={setOverlap} label="Old secret keeps signing for" />
        <ActionButton
          label="Rotate webhook secret"
          confirm="Rotate this tenant's webhook secret?"
          success="New webhook secret created"
          disabled={!canManage}
          disabledReason="Your role cannot rotate secrets"
          action={() => rotate({ overlapSeconds: overlap })}
          onDone={(d) => setSecret(d.webhookSecret)}
        />
      </div>
      {secret && (
        <RevealOnce label="The tenant's new webhook signing secret" value={secret} onDismiss={() => setSecret(null)} />
      )}
    </div>
  );
}
