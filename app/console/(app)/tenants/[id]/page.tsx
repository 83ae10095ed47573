import Link from 'next/link';
import { requireProviderActor, orNotFound } from '@/lib/console/session';
import { canManage, ownedTenantOf } from '@/lib/domain/console';
import { listApiKeys } from '@/lib/domain/keys';
import { tenantView } from '@/lib/domain/tenants';
import {
  rotateTenantKeyAction,
  rotateTenantWebhookSecretAction,
  saveTenantBrandingAction,
  updateTenantAction,
} from '@/app/console/actions';
import { BrandingEditor } from '@/components/console/BrandingEditor';
import { providerBrandingView } from '@/lib/domain/branding';
import { resolveBranding } from '@/lib/domain/branding.schemas';
import { ActionButton } from '@/components/console/client';
import { KeysManager } from '@/components/console/KeysManager';
import { TenantEditor } from '@/components/console/TenantEditor';
import { TenantSecretRotation } from '@/components/console/TenantSecretRotation';
import { Badge, Card, PageHeader, statusTone } from '@/components/console/ui';

export default async function TenantPage({ params }: { params: Promise<{ id: string }> }) {
  const actor = await requireProviderActor();
  const { id } = await params;
  const tenant = await orNotFound(() => ownedTenantOf(actor, id));
  const view = tenantView(tenant);
  const keys = await listApiKeys(tenant.id);
  const manage = canManage(actor);
  const suspended = view.status === 'SUSPENDED';
  return (
    <>
      <p className="mb-2 text-sm">
        <Link href="/console/tenants" className="text-blue-700 hover:underline dark:text-blue-300">
          ← Tenants
        </Link>
      </p>
      <PageHeader title={view.name} description={view.id}>
        <span className="inline-flex items-center gap-3">
          <Badge tone={statusTone(view.status)}>{view.status.toLowerCase()}</Badge>
          <ActionButton
            action={updateTenantAction.bind(null, tenant.id, { status: suspended ? 'ACTIVE' : 'SUSPENDED' })}
            label={suspended ? 'Reactivate' : 'Suspend'}
            tone={suspended ? 'primary' : 'danger'}
            confirm={suspended ? undefined : 'Suspend? Its API keys stop working until reactivated.'}
            success={suspended ? 'Tenant reactivated' : 'Tenant suspended'}
            disabled={!manage}
            disabledReason="Your role cannot change tenants"
          />
        </span>
      </PageHeader>
      <Card title="Plan and entitlements" className="mb-6">
        <TenantEditor
          plan={view.plan}
          overrides={view.entitlementOverrides}
          canManage={manage}
          save={updateTenantAction.bind(null, tenant.id)}
        />
      </Card>
      <Card title="Call UI branding" className="mb-6">
        <BrandingEditor
          own={view.branding}
          fallback={resolveBranding(null, await providerBrandingView({ id: actor.providerId }))}
          canManage={manage}
          save={saveTenantBrandingAction.bind(null, tenant.id)}
        />
      </Card>
      <Card title="API keys" className="mb-6">
        <KeysManager keys={keys.data} canManage={manage} rotate={rotateTenantKeyAction.bind(null, tenant.id)} />
      </Card>
      <Card title="Webhook signing secret">
        <TenantSecretRotation
          canManage={manage}
          configured={view.webhook.secretConfigured}
          rotate={rotateTenantWebhookSecretAction.bind(null, tenant.id)}
        />
      </Card>
    </>
  );
}
