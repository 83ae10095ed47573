import { z } from 'zod';
import { entitlementOverrides, planName } from '@/lib/domain/plans';
import { permission } from '@/lib/domain/permissions';
import { EVENT_NAMES } from '@/lib/events/catalog';
import { paginationQuery } from '@/lib/domain/pagination';

const origin = z.string().trim().max(200).regex(/^https?:\/\/[^/\s]+$/, 'must be an origin such as https://app.example.com');

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
