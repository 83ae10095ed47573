import { requireTenantActor } from '@/lib/console/session';
import { PLANS, type PlanName } from '@/lib/domain/plans';
import { tenantView } from '@/lib/domain/tenants';
import { LimitsTable } from '@/components/console/LimitsTable';
import { Badge } from '@/components/console/Badge';
import { PageHeader } from '@/components/console/PageHeader';

export default async function PlanPage() {
  const actor = await requireTenantActor();
  const view = tenantView(actor.tenant);
  return (
    <>
      <PageHeader
        title="Plan & limits"
        description="Your provider sets the plan and any overrides; requests beyond a limit are refused with PLAN_LIMIT_REACHED."
      />
      <p className="mb-4 text-sm">
        Plan: <Badge tone="green">{view.plan}</Badge>
        {view.isTestMode && (
          <span className="ml-2">
            <Badge tone="amber">test mode</Badge>
          </span>
        )}
      </p>
      <LimitsTable
        plan={PLANS[view.plan as PlanName] ?? PLANS.starter}
        resolved={view.resolvedLimits}
        overrides={view.entitlementOverrides}
      />
    </>
  );
}
