import { z } from 'zod';
import { TenantStatus } from '@/lib/generated/prisma/enums';
import { LIMIT_NAMES, entitlementOverrides, planName, type LimitName } from '@/lib/domain/plans';
import { EVENT_NAMES } from '@/lib/events/catalog';
import { paginationQuery } from '@/lib/domain/pagination';
import { brandingInput, brandingResponse } from '@/lib/domain/branding.schemas';
import { createdApiKeyResponse } from '@/lib/domain/keys.schemas';
import { tenantWebhookResponse } from '@/lib/domain/webhooks.schemas';
import { named, page, timestamp } from '@/lib/domain/shared.schemas';
import { normaliseFrameOrigin } from '@/lib/net/origin';

/** Tenants (as the tenant and its provider see them): request and response schemas. */
const tenantStatus = z.enum(TenantStatus);

/** Origins only (scheme + host [+ port], optional leading `*.`), stored normalised: see lib/net/origin.ts. */
const origin = z
  .string()
  .max(200)
  .transform((value, ctx) => {
    const normalised = normaliseFrameOrigin(value);
    if (normalised) return normalised;
    ctx.addIssue({
      code: 'custom',
      message:
        'must be an origin such as https://app.example.com or https://*.example.com (scheme, host and optional port only)',
    });
    return z.NEVER;
  });

export const provisionTenantInput = z.object({
  name: z.string().trim().min(1).max(200),
  plan: planName.optional(),
  isTestMode: z.boolean().default(false),
  entitlementOverrides: entitlementOverrides.optional(),
  webhookUrl: z.string().trim().max(2048).nullable().optional(),
  webhookEvents: z.array(z.enum(EVENT_NAMES)).min(1).nullable().optional(),
  frameAncestors: z.array(origin).max(20).optional(),
  branding: brandingInput.optional(),
});

export const updateTenantInput = z
  .object({
    name: z.string().trim().min(1).max(200),
    plan: planName,
    entitlementOverrides: entitlementOverrides.nullable(),
    status: tenantStatus,
    frameAncestors: z.array(origin).max(20),
    joinWindowMinutes: z.number().int().min(0).max(1440),
    emptyRoomTimeoutMinutes: z.number().int().min(1).max(1440),
    /** The tenant's hosted-UI branding, merged field by field as PATCH /tenant/branding does. */
    branding: brandingInput,
  })
  .partial();

export const tenantListQuery = paginationQuery.extend({ status: tenantStatus.optional() });

const limitsResponse = named(
  'Limits',
  'Resolved plan limits: the plan merged with the provider’s overrides.',
  z.object(Object.fromEntries(LIMIT_NAMES.map((n) => [n, z.int()])) as Record<LimitName, z.ZodInt>),
);

export const tenantResponse = named(
  'Tenant',
  'A tenant, as the tenant and its provider see it.',
  z.object({
    id: z.string(),
    name: z.string(),
    status: tenantStatus,
    isTestMode: z.boolean(),
    plan: planName,
    entitlementOverrides,
    resolvedLimits: limitsResponse,
    webhook: tenantWebhookResponse,
    frameAncestors: z.array(z.string()),
    branding: brandingResponse,
    joinWindowMinutes: z.int(),
    emptyRoomTimeoutMinutes: z.int(),
    providerId: z.string().nullable(),
    createdAt: timestamp,
    updatedAt: timestamp,
  }),
);
export type TenantResponse = z.output<typeof tenantResponse>;
export const tenantPage = page('TenantPage', tenantResponse, 'tenants');

export const provisionedTenantResponse = named(
  'ProvisionedTenant',
  'A new tenant with its first API key and webhook secret, shown this once.',
  z.object({ tenant: tenantResponse, apiKey: createdApiKeyResponse, webhookSecret: z.string() }),
);
