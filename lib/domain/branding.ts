import type { Provider, Tenant } from '@/lib/generated/prisma/client';
import { db, Prisma } from '@/lib/db';
import { credentialsChanged } from '@/lib/runtime/credential-cache';
import {
  mergeBranding,
  resolveBranding,
  storedBranding,
  type Branding,
  type BrandingInput,
} from '@/lib/domain/branding.schemas';

/**
 * Branding of the hosted call UI: a tenant's own (PATCH /tenant/branding, or its provider's
 * tenant update) over its provider's default (PATCH /provider/branding) over Convene's. The
 * rules are in branding.schemas.ts.
 */
function toJson(branding: Branding): Prisma.InputJsonValue {
  return { ...branding } as unknown as Prisma.InputJsonValue;
}

async function providerDefault(providerId: string | null): Promise<Branding | null> {
  if (!providerId) return null;
  const provider = await db().provider.findUnique({ where: { id: providerId }, select: { defaultBranding: true } });
  return provider ? storedBranding(provider.defaultBranding) : null;
}

function brandingViewOf(row: Pick<Tenant, 'branding'>, providerBranding: Branding | null) {
  const own = storedBranding(row.branding);
  return { ...own, effective: resolveBranding(own, providerBranding) };
}

/** Read from the row, not the caller's (possibly cached) tenant: a GET right after a PATCH sees it. */
export async function tenantBrandingView(tenant: Pick<Tenant, 'id'>) {
  const row = await db().tenant.findUniqueOrThrow({
    where: { id: tenant.id },
    select: { branding: true, providerId: true },
  });
  return brandingViewOf(row, await providerDefault(row.providerId));
}

/** What the tenant's call UI shows (its own over its provider's default over Convene's), e.g. its feature switches. */
export async function effectiveBranding(tenant: Pick<Tenant, 'branding' | 'providerId'>) {
  return resolveBranding(storedBranding(tenant.branding), await providerDefault(tenant.providerId));
}

/** The tenant's own branding after a PATCH: omitted fields stay, null clears. */
export async function updateTenantBranding(tenant: Pick<Tenant, 'id'>, input: BrandingInput) {
  const updated = await db().$transaction(async (tx) => {
    const [row] = await tx.$queryRaw<
      { branding: unknown }[]
    >`SELECT branding FROM "Tenant" WHERE id = ${tenant.id} FOR UPDATE`;
    const next = mergeBranding(storedBranding(row?.branding), input);
    return tx.tenant.update({ where: { id: tenant.id }, data: { branding: toJson(next) } });
  });
  credentialsChanged(); // cached tenant rows carry the branding
  return brandingViewOf(updated, await providerDefault(updated.providerId));
}

/** The stored branding a tenant update writes (provider's tenant update), or undefined to leave it. */
export function brandingUpdate(current: unknown, input: BrandingInput | undefined): Prisma.InputJsonValue | undefined {
  return input === undefined ? undefined : toJson(mergeBranding(storedBranding(current), input));
}

export async function providerBrandingView(provider: Pick<Provider, 'id'>) {
  return (await providerDefault(provider.id)) ?? storedBranding(null);
}

export async function updateProviderBranding(provider: Pick<Provider, 'id'>, input: BrandingInput) {
  return db().$transaction(async (tx) => {
    const [row] = await tx.$queryRaw<
      { defaultBranding: unknown }[]
    >`SELECT "defaultBranding" FROM "Provider" WHERE id = ${provider.id} FOR UPDATE`;
    const next = mergeBranding(storedBranding(row?.defaultBranding), input);
    await tx.provider.update({ where: { id: provider.id }, data: { defaultBranding: toJson(next) } });
    return next;
  });
}
