import { z } from 'zod';
import { entitlementOverrides, planName } from '@/lib/domain/plans';
import { permission } from '@/lib/domain/permissions';
import { EVENT_NAMES } from '@/lib/events/catalog';
import { paginationQuery } from '@/lib/domain/pagination';
import { brandingInput } from '@/lib/domain/branding.schemas';
import { normaliseFrameOrigin } from '@/lib/net/origin';

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

/** Bounds on a rotated key's grace period: 0 (revoke at once) to 7 days; default 1 hour. */
export const MAX_GRACE_SECONDS = 604_800;
export const DEFAULT_GRACE_SECONDS = 3_600;
const gracePeriodSeconds = z.number().int().min(0).max(MAX_GRACE_SECONDS);

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
    status: z.enum(['ACTIVE', 'SUSPENDED']),
    frameAncestors: z.array(origin).max(20),
    joinWindowMinutes: z.number().int().min(0).max(1440),
    emptyRoomTimeoutMinutes: z.number().int().min(1).max(1440),
    /** The tenant's hosted-UI branding, merged field by field as PATCH /tenant/branding does. */
    branding: brandingInput,
  })
  .partial();

export const createKeyInput = z.object({
  name: z.string().trim().min(1).max(100).optional(),
  permissions: z.array(permission).min(1).optional(),
});

export const rotateKeyInput = z.object({ gracePeriodSeconds: gracePeriodSeconds.default(DEFAULT_GRACE_SECONDS) });

export const tenantListQuery = paginationQuery.extend({ status: z.enum(['ACTIVE', 'SUSPENDED']).optional() });

export const usageQuery = z.object({
  from: z.iso.date().optional(),
  to: z.iso.date().optional(),
});
