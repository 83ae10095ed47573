import Link from 'next/link';
import { requireTenantActor, listQuery } from '@/lib/console/session';
import { canManage } from '@/lib/domain/console';
import { listDeliveries } from '@/lib/domain/webhooks';
import { deliveryListQuery } from '@/lib/domain/webhooks.schemas';
import { tenantView } from '@/lib/domain/tenants';
import { EVENT_NAMES } from '@/lib/events/catalog';
import { rotateWebhookSecretAction, saveWebhookAction, sendTestEventAction } from '@/app/console/actions';
import { WebhookSettings } from '@/components/console/WebhookSettings';
import { DeliveriesTable } from '@/components/console/DeliveriesTable';
import { Card } from '@/components/console/Card';
import { FilterLinks } from '@/components/console/FilterLinks';
import { PageHeader } from '@/components/console/PageHeader';
import { secondaryButton } from '@/components/console/styles';

export default async function WebhooksPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const actor = await requireTenantActor();
  const view = tenantView(actor.tenant);
  const query = listQuery(deliveryListQuery, await searchParams);
  const page = await listDeliveries(actor.tenant, query);
  const next = page.nextCursor
    ? `/console/webhooks?${new URLSearchParams({ ...(query.status ? { status: query.status } : {}), cursor: page.nextCursor })}`
    : null;
  return (
    <>
      <PageHeader
        title="Webhooks"
        description="Signed events about your rooms, delivered to your endpoint with retries."
      />
      <Card className="mb-8">
        <WebhookSettings
          url={view.webhook.url}
          events={view.webhook.events}
          allEvents={EVENT_NAMES}
          canManage={canManage(actor)}
          save={saveWebhookAction}
          rotateSecret={rotateWebhookSecretAction}
          sendTest={sendTestEventAction}
        />
      </Card>
      <h2 className="mb-2 text-lg font-semibold">Deliveries</h2>
      <FilterLinks
        label="Filter deliveries by status"
        param="status"
        options={['delivered', 'failed', 'retrying', 'pending']}
        current={query.status}
        base="/console/webhooks"
      />
      <DeliveriesTable deliveries={page.data} canManage={canManage(actor)} />
      {next && (
        <Link href={next} className={`${secondaryButton} mt-4`}>
          Older deliveries
        </Link>
      )}
    </>
  );
}
