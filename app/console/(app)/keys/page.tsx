import { requireTenantActor } from '@/lib/console/session';
import { canManage } from '@/lib/domain/console';
import { listApiKeys } from '@/lib/domain/keys';
import { createKeyAction, revokeKeyAction, rotateKeyAction } from '@/app/console/actions';
import { KeysManager } from '@/components/console/KeysManager';
import { PageHeader } from '@/components/console/PageHeader';

export default async function KeysPage() {
  const actor = await requireTenantActor();
  const keys = await listApiKeys(actor.tenant.id);
  return (
    <>
      <PageHeader
        title="API keys"
        description="Your backend sends one of these as x-api-key. Only a hint is stored in readable form."
      />
      <KeysManager
        keys={keys.data}
        canManage={canManage(actor)}
        create={createKeyAction}
        rotate={rotateKeyAction}
        revoke={revokeKeyAction}
      />
    </>
  );
}
