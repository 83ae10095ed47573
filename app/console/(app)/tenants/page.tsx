import Link from 'next/link';
import { requireProviderActor } from '@/lib/console/session';
import { resellerTenants } from '@/lib/domain/console';
import { Badge, Empty, PageHeader, Table, fmtDate, primaryButton, statusTone, td } from '@/components/console/ui';

export default async function TenantsPage() {
  const actor = await requireProviderActor();
  const rows = await resellerTenants(actor.providerId);
  return (
    <>
      <PageHeader title="Tenants" description="Every tenant you provisioned, with this month's usage.">
        <Link href="/console/tenants/new" className={primaryButton}>
          Provision tenant
        </Link>
      </PageHeader>
      {rows.length === 0 ? (
        <Empty>No tenants yet.</Empty>
      ) : (
        <Table
          caption="Tenants"
          head={['Tenant', 'Plan', 'Status', 'Participant-minutes (month)', 'API requests (month)', 'Created']}
        >
          {rows.map(({ tenant, participantMinutes, apiRequests }) => (
            <tr key={tenant.id} data-testid="tenant-row">
              <td className={td}>
                <Link
                  href={`/console/tenants/${tenant.id}`}
                  className="font-medium text-blue-700 hover:underline dark:text-blue-300"
                >
                  {tenant.name}
                </Link>
                {tenant.isTestMode && (
                  <span className="ml-2">
                    <Badge tone="amber">test</Badge>
                  </span>
                )}
              </td>
              <td className={td}>{tenant.plan}</td>
              <td className={td}>
                <Badge tone={statusTone(tenant.status)}>{tenant.status.toLowerCase()}</Badge>
              </td>
              <td className={`${td} tabular-nums`}>{participantMinutes}</td>
              <td className={`${td} tabular-nums`}>{apiRequests}</td>
              <td className={td}>{fmtDate(tenant.createdAt)}</td>
            </tr>
          ))}
        </Table>
      )}
    </>
  );
}
