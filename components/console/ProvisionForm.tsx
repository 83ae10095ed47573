'use client';

import { useState } from 'react';
import Link from 'next/link';
import { provisionTenantAction } from '@/app/console/actions';
import { ActionButton } from '@/components/console/ActionButton';
import { PlanSelect } from '@/components/console/PlanSelect';
import { RevealOnce } from '@/components/console/RevealOnce';
import type { PlanName } from '@/lib/domain/plans';
import { input } from '@/components/console/styles';

/** Provision a tenant; its first API key and webhook secret are shown here, once. */
export function ProvisionForm({ canManage }: { canManage: boolean }) {
  const [name, setName] = useState('');
  const [plan, setPlan] = useState<PlanName>('starter');
  const [testMode, setTestMode] = useState(false);
  const [created, setCreated] = useState<{ tenantId: string; plainTextKey: string; webhookSecret: string } | null>(
    null,
  );

  if (created) {
    return (
      <div>
        <RevealOnce label="The tenant's first API key" value={created.plainTextKey} onDismiss={() => undefined} />
        <RevealOnce
          label="The tenant's webhook signing secret"
          value={created.webhookSecret}
          onDismiss={() => undefined}
        />
        <Link href={`/console/tenants/${created.tenantId}`} className="text-blue-700 underline dark:text-blue-300">
          Open the tenant
        </Link>
      </div>
    );
  }
  return (
    <form onSubmit={(e) => e.preventDefault()} className="max-w-md space-y-4">
      <label className="block text-sm">
        <span className="mb-1 block font-medium">Tenant name</span>
        <input className={input} value={name} onChange={(e) => setName(e.target.value)} required maxLength={200} />
      </label>
      <PlanSelect value={plan} onChange={setPlan} />
      <label className="flex items-center gap-2 text-sm">
        <input type="checkbox" checked={testMode} onChange={(e) => setTestMode(e.target.checked)} /> Test mode (no media
        billing)
      </label>
      <ActionButton
        label="Provision tenant"
        tone="primary"
        success="Tenant provisioned"
        disabled={!canManage || !name.trim()}
        disabledReason={canManage ? 'Enter a name' : 'Your role cannot provision tenants'}
        action={() => provisionTenantAction({ name, plan, isTestMode: testMode })}
        onDone={setCreated}
      />
    </form>
  );
}
