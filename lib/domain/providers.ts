import type { Provider } from '@/lib/generated/prisma/client';
import type { z } from 'zod';
import { db, Prisma } from '@/lib/db';
import { notFound } from '@/lib/errors';
import { pageArgs, toPage } from '@/lib/domain/pagination';
import { apiKeyView } from '@/lib/domain/keys';
import { provisionTenant, tenantView } from '@/lib/domain/tenants';
import { validateWebhookUrl } from '@/lib/domain/webhooks';
import { brandingUpdate } from '@/lib/domain/branding';
import { credentialsChanged } from '@/lib/runtime/credential-cache';
import type { provisionTenantInput, tenantListQuery, updateTenantInput } from '@/lib/domain/tenants.schemas';

/** A provider sees only the tenants it owns; any other id is 404. */
export async function findOwnedTenant(providerId: string, tenantId: string) {
  const tenant = await db().tenant.findFirst({ where: { id: tenantId, providerId } });
  if (!tenant) throw notFound('Tenant');
  return tenant;
}

/** Provisioning returns the first API key and the webhook secret, once. */
export async function provisionOwnedTenant(
  provider: Pick<Provider, 'id'>,
  input: z.infer<typeof provisionTenantInput>,
) {
  const webhookUrl = await validateWebhookUrl(input.webhookUrl);
  const created = await db().$transaction((tx) =>
    provisionTenant(
      {
        name: input.name,
        providerId: provider.id,
        plan: input.plan,
        isTestMode: input.isTestMode,
        entitlementOverrides: input.entitlementOverrides,
        webhookUrl: webhookUrl ?? null,
        webhookEvents: input.webhookEvents ?? null,
        frameAncestors: input.frameAncestors,
        branding: brandingUpdate(null, input.branding),
      },
      { tx },
    ),
  );
  return {
    tenant: tenantView(created.tenant),
    apiKey: { ...apiKeyView(created.apiKey), plainTextKey: created.plainTextKey },
    webhookSecret: created.webhookSecret,
  };
}

export async function listOwnedTenants(provider: Pick<Provider, 'id'>, query: z.infer<typeof tenantListQuery>) {
  const page = pageArgs(query);
  const rows = await db().tenant.findMany({
    where: { providerId: provider.id, ...(query.status ? { status: query.status } : {}), ...page.where },
    orderBy: page.orderBy,
    take: page.take,
  });
  return toPage(rows, query, (t) => tenantView(t));
}

export async function getOwnedTenant(provider: Pick<Provider, 'id'>, tenantId: string) {
  return tenantView(await findOwnedTenant(provider.id, tenantId));
}

/** Plan and entitlementOverrides set the quotas (null clears the overrides); status suspends or reactivates. */
export async function updateOwnedTenant(
  provider: Pick<Provider, 'id'>,
  tenantId: string,
  input: z.infer<typeof updateTenantInput>,
) {
  const tenant = await findOwnedTenant(provider.id, tenantId);
  const { entitlementOverrides, branding, ...rest } = input;
  const brandingJson = brandingUpdate(tenant.branding, branding);
  const updated = await db().tenant.update({
    where: { id: tenant.id },
    data: {
      ...rest,
      ...(entitlementOverrides !== undefined ? { entitlementOverrides: entitlementOverrides ?? Prisma.DbNull } : {}),
      ...(brandingJson !== undefined ? { branding: brandingJson } : {}),
    },
  });
  credentialsChanged();
  return tenantView(updated);
}
