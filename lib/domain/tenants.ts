import type { Tenant } from '@/lib/generated/prisma/client';
import type { Prisma, Tx } from '@/lib/db';
import { rowFromJson } from '@/lib/domain/time';
import { storedBranding } from '@/lib/domain/branding.schemas';
import { encryptSecret } from '@/lib/crypto';
import { createApiKey, generateKey, generateWebhookSecret } from '@/lib/domain/keys';
import { resolveLimits, type EntitlementOverrides, type PlanName } from '@/lib/domain/plans';
import type { Permission } from '@/lib/domain/permissions';
import { ApiError } from '@/lib/errors';
import type { TenantResponse } from '@/lib/domain/tenants.schemas';
import type { EventName } from '@/lib/events/catalog';

/** What a tenant (or its provider) may see of a tenant: never a secret, only whether one exists. */
export function tenantView(tenant: Tenant, now = new Date()): TenantResponse {
  const overlapActive = !!tenant.webhookSecretPreviousExpiresAt && tenant.webhookSecretPreviousExpiresAt > now;
  return {
    id: tenant.id,
    name: tenant.name,
    status: tenant.status,
    isTestMode: tenant.isTestMode,
    plan: tenant.plan as PlanName,
    entitlementOverrides: (tenant.entitlementOverrides as EntitlementOverrides | null) ?? {},
    resolvedLimits: resolveLimits(tenant.plan, tenant.entitlementOverrides),
    webhook: {
      url: tenant.webhookUrl,
      events: (tenant.webhookEvents as EventName[] | null) ?? null,
      secretConfigured: !!tenant.webhookSecretEncrypted,
      previousSecretExpiresAt: overlapActive ? tenant.webhookSecretPreviousExpiresAt!.toISOString() : null,
    },
    frameAncestors: tenant.frameAncestors,
    branding: storedBranding(tenant.branding),
    joinWindowMinutes: tenant.joinWindowMinutes,
    emptyRoomTimeoutMinutes: tenant.emptyRoomTimeoutMinutes,
    providerId: tenant.providerId,
    createdAt: tenant.createdAt.toISOString(),
    updatedAt: tenant.updatedAt.toISOString(),
  };
}

const TENANT_DATES = ['webhookSecretPreviousExpiresAt', 'createdAt', 'updatedAt'] as const;

export const tenantFromJson = (row: Record<string, unknown>) => rowFromJson<Tenant>(row, TENANT_DATES);

export interface ProvisionTenantInput {
  name: string;
  providerId?: string | null;
  plan?: PlanName;
  isTestMode?: boolean;
  entitlementOverrides?: EntitlementOverrides;
  webhookUrl?: string | null;
  webhookEvents?: string[] | null;
  frameAncestors?: string[];
  /** Hosted-UI branding (already validated and merged: lib/domain/branding.ts). */
  branding?: Prisma.InputJsonValue;
  keyPermissions?: Permission[];
}

/**
 * Creates a tenant with its first API key and webhook secret. The plaintexts are returned once,
 * here, and never again.
 */
export async function provisionTenant(input: ProvisionTenantInput, { tx }: { tx: Tx }) {
  const webhookSecret = generateWebhookSecret();
  const tenant = await tx.tenant.create({
    data: {
      name: input.name,
      providerId: input.providerId ?? null,
      plan: input.plan ?? (input.isTestMode ? 'sandbox' : 'starter'),
      isTestMode: input.isTestMode ?? false,
      entitlementOverrides: input.entitlementOverrides ?? undefined,
      webhookUrl: input.webhookUrl ?? null,
      webhookEvents: input.webhookEvents ?? undefined,
      webhookSecretEncrypted: encryptSecret(webhookSecret),
      frameAncestors: input.frameAncestors ?? [],
      branding: input.branding ?? undefined,
    },
  });
  const { apiKey, plainTextKey } = await createApiKey(tenant, {
    tx,
    name: 'Default key',
    permissions: input.keyPermissions,
  });
  return { tenant, apiKey, plainTextKey, webhookSecret };
}

export async function createProviderWithKey(name: string, { tx }: { tx: Tx }) {
  const provider = await tx.provider.create({ data: { name } });
  const key = generateKey('prov');
  await tx.providerKey.create({ data: { providerId: provider.id, keyHash: key.hash, keyHint: key.hint } });
  return { provider, plainTextKey: key.plaintext };
}

type BillableFeature = 'recording' | 'streaming' | 'captions' | 'transcripts' | 'summaries';
const FEATURE_LIMIT: Record<BillableFeature, keyof ReturnType<typeof resolveLimits>> = {
  recording: 'recordingMinutesPerMonth',
  streaming: 'streamingMinutesPerMonth',
  captions: 'captionMinutesPerMonth',
  transcripts: 'transcriptionMinutesPerMonth',
  summaries: 'summariesPerMonth',
};

/**
 * Billable media is refused before any media call: TEST_MODE_MEDIA_DISABLED for sandbox tenants,
 * PLAN_LIMIT_REACHED when the plan includes no minutes of the feature or this month's are used up.
 */
export function assertBillableMediaAllowed(tenant: Tenant, feature: BillableFeature, usedMinutesThisMonth = 0) {
  if (tenant.isTestMode) {
    throw new ApiError(
      'TEST_MODE_MEDIA_DISABLED',
      `Test-mode tenants cannot use ${feature}: it is billable media. Use a live tenant.`,
    );
  }
  const limit = resolveLimits(tenant.plan, tenant.entitlementOverrides)[FEATURE_LIMIT[feature]];
  if (usedMinutesThisMonth >= limit) {
    throw new ApiError(
      'PLAN_LIMIT_REACHED',
      `Your plan's ${FEATURE_LIMIT[feature]} (${limit}) is used up for this month.`,
    );
  }
}
