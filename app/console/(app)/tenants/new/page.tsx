import { requireProviderActor } from '@/lib/console/session';
import { canManage } from '@/lib/domain/console';
import { ProvisionForm } from '@/components/console/ProvisionForm';
import { PageHeader } from '@/components/console/PageHeader';

export default async function NewTenantPage() {
  const actor = await requireProviderActor();
  return (
    <>
      <PageHeader
        title="Provision a tenant"
        description="Creates the tenant with its first API key and webhook signing secret."
      />
      <ProvisionForm canManage={canManage(actor)} />
    </>
  );
}
