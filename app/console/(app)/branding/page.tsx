import { requireTenantActor } from '@/lib/console/session';
import { canManage } from '@/lib/domain/console';
import { providerBrandingView } from '@/lib/domain/branding';
import { resolveBranding, storedBranding } from '@/lib/domain/branding.schemas';
import { saveBrandingAction } from '@/app/console/actions';
import { BrandingEditor } from '@/components/console/BrandingEditor';
import { Card } from '@/components/console/Card';
import { PageHeader } from '@/components/console/PageHeader';

export default async function BrandingPage() {
  const actor = await requireTenantActor();
  const own = storedBranding(actor.tenant.branding);
  const fallback = resolveBranding(
    null,
    actor.tenant.providerId ? await providerBrandingView({ id: actor.tenant.providerId }) : null,
  );
  return (
    <>
      <PageHeader
        title="Branding"
        description="How the hosted call UI looks to your participants: logo, name, colours and default language. Empty fields use your provider’s default, then Convene’s."
      />
      <Card>
        <BrandingEditor own={own} fallback={fallback} canManage={canManage(actor)} save={saveBrandingAction} />
      </Card>
    </>
  );
}
