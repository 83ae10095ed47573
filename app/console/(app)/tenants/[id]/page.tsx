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
import { ActionButton } from '@/components/console/ActionButton';
import { Badge, statusTone } from '@/components/console/Badge';
import { Card } from '@/components/console/Card';
import { KeysManager } from '@/components/console/KeysManager';
import { PageHeader } from '@/components/console/PageHeader';
import { TenantEditor } from '@/components/console/TenantEditor';
import { WebhookSecretRotation } from '@/components/console/WebhookSecretRotation';

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
      <PageHeader back={{ href: '/console/tenants', label: 'Tenants' }} title={view.name} description={view.id}>
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
        <p className="mb-3 text-sm">
          {view.webhook.secretConfigured ? 'A signing secret is set.' : 'No signing secret yet.'} During the overlap
          both the old and the new secret sign each delivery.
        </p>
        <WebhookSecretRotation
          id="tenant-overlap"
          rotate={rotateTenantWebhookSecretAction.bind(null, tenant.id)}
          canManage={manage}
          label="Rotate webhook secret"
          confirm="Rotate this tenant's webhook secret?"
          success="New webhook secret created"
          disabledReason="Your role cannot rotate secrets"
          revealLabel="The tenant's new webhook signing secret"
        />
      </Card>
    </>
  );
}
