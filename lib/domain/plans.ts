import { z } from 'zod';

/**
 * The plan catalogue. Each plan names its numeric limits; a provider may override any of them
 * per tenant (entitlementOverrides), and resolvedLimits = plan merged with the overrides.
 * -1 never appears: "unlimited" is expressed as a large number so comparisons stay simple.
 */
export const LIMIT_NAMES = [
  'maxParticipantsPerRoom',
  'concurrentLiveRooms',
  'recordingMinutesPerMonth',
  'streamingMinutesPerMonth',
  'captionMinutesPerMonth',
  'webhookEndpoints',
  'apiRequestsPerSecond',
] as const;
export type LimitName = (typeof LIMIT_NAMES)[number];
export type Limits = Record<LimitName, number>;

export const PLANS = {
  sandbox: {
    maxParticipantsPerRoom: 10,
    concurrentLiveRooms: 5,
    recordingMinutesPerMonth: 0,
    streamingMinutesPerMonth: 0,
    captionMinutesPerMonth: 0,
    webhookEndpoints: 1,
    apiRequestsPerSecond: 20,
  },
  starter: {
    maxParticipantsPerRoom: 50,
    concurrentLiveRooms: 25,
    recordingMinutesPerMonth: 1_000,
    streamingMinutesPerMonth: 500,
    captionMinutesPerMonth: 500,
    webhookEndpoints: 1,
    apiRequestsPerSecond: 50,
  },
  growth: {
    maxParticipantsPerRoom: 200,
    concurrentLiveRooms: 250,
    recordingMinutesPerMonth: 20_000,
    streamingMinutesPerMonth: 10_000,
    captionMinutesPerMonth: 10_000,
    webhookEndpoints: 1,
    apiRequestsPerSecond: 200,
  },
  enterprise: {
    maxParticipantsPerRoom: 1_000,
    concurrentLiveRooms: 5_000,
    recordingMinutesPerMonth: 1_000_000,
    streamingMinutesPerMonth: 1_000_000,
    captionMinutesPerMonth: 1_000_000,
    webhookEndpoints: 1,
    apiRequestsPerSecond: 1_000,
  },
} as const satisfies Record<string, Limits>;

export type PlanName = keyof typeof PLANS;
export const PLAN_NAMES = Object.keys(PLANS) as [PlanName, ...PlanName[]];
export const planName = z.enum(PLAN_NAMES);

/** Overrides: any subset of the limits, each a non-negative integer. */
export const entitlementOverrides = z
  .object(Object.fromEntries(LIMIT_NAMES.map((n) => [n, z.number().int().min(0).max(1_000_000_000)])) as Record<
    LimitName,
    z.ZodNumber
  >)
  .partial()
  .strict();
export type EntitlementOverrides = z.infer<typeof entitlementOverrides>;

export function resolveLimits(plan: string, overrides: unknown): Limits {
  const base: Limits = PLANS[plan as PlanName] ?? PLANS.starter;
  const parsed = entitlementOverrides.safeParse(overrides ?? {});
  return { ...base, ...(parsed.success ? parsed.data : {}) };
}
