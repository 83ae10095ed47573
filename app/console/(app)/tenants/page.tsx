import Link from 'next/link';
import { requireProviderActor } from '@/lib/console/session';
import { resellerTenants } from '@/lib/domain/console';
import { Badge, statusTone } from '@/components/console/Badge';
import { fmtDate } from '@/components/console/format';
import { PageHeader } from '@/components/console/PageHeader';
import { link, primaryButton } from '@/components/console/styles';
import { Empty, Table, cell } from '@/components/console/Table';

const HEAD = ['Tenant', 'Plan', 'Status', 'Participant-minutes (month)', 'API requests (month)', 'Created'];

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
        <Table caption="Tenants" head={HEAD} stack>
          {rows.map(({ tenant, participantMinutes, apiRequests }) => (
            <tr key={tenant.id} data-testid="tenant-row">
              <td {...cell(HEAD[0])}>
                <span>
                  <Link href={`/console/tenants/${tenant.id}`} className={`font-medium ${link}`}>
                    {tenant.name}
                  </Link>
                  {tenant.isTestMode && (
                    <span className="ml-2">
                      <Badge tone="amber">test</Badge>
                    </span>
                  )}
                </span>
              </td>
              <td {...cell(HEAD[1])}>{tenant.plan}</td>
              <td {...cell(HEAD[2])}>
                <span>
                  <Badge tone={statusTone(tenant.status)}>{tenant.status.toLowerCase()}</Badge>
                </span>
              </td>
              <td {...cell(HEAD[3], 'tabular-nums')}>{participantMinutes}</td>
              <td {...cell(HEAD[4], 'tabular-nums')}>{apiRequests}</td>
              <td {...cell(HEAD[5])}>{fmtDate(tenant.createdAt)}</td>
            </tr>
          ))}
        </Table>
      )}
    </>
  );
}
