import { z } from 'zod';

/**
 * The plan catalogue. Each plan names its numeric limits; a provider may override any of them
 * per tenant (entitlementOverrides), and resolvedLimits = plan merged with the overrides.
 * -1 never appears: "unlimited" is expressed as a large number so comparisons stay simple.
 * concurrentStreams / concurrentRecordings count egresses running at once (STARTING, ACTIVE or
 * STOPPING); ingressEndpoints counts ingresses not deleted (each is a listener in the media layer).
 * transcriptionMinutesPerMonth: minutes of audio sent to the speech-to-text service (a live
 * transcript's are its captions' minutes); summariesPerMonth: summaries made (lib/domain/summaries.ts).
 */
export const LIMIT_NAMES = [
  'maxParticipantsPerRoom',
  'concurrentLiveRooms',
  'recordingMinutesPerMonth',
  'streamingMinutesPerMonth',
  'captionMinutesPerMonth',
  'transcriptionMinutesPerMonth',
  'summariesPerMonth',
  'concurrentStreams',
  'concurrentRecordings',
  'ingressEndpoints',
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
    transcriptionMinutesPerMonth: 0,
    summariesPerMonth: 0,
    concurrentStreams: 0,
    concurrentRecordings: 0,
    ingressEndpoints: 2,
    webhookEndpoints: 1,
    apiRequestsPerSecond: 20,
  },
  starter: {
    maxParticipantsPerRoom: 50,
    concurrentLiveRooms: 25,
    recordingMinutesPerMonth: 1_000,
    streamingMinutesPerMonth: 500,
    captionMinutesPerMonth: 500,
    transcriptionMinutesPerMonth: 1_000,
    summariesPerMonth: 200,
    concurrentStreams: 2,
    concurrentRecordings: 5,
    ingressEndpoints: 5,
    webhookEndpoints: 1,
    apiRequestsPerSecond: 50,
  },
  growth: {
    maxParticipantsPerRoom: 200,
    concurrentLiveRooms: 250,
    recordingMinutesPerMonth: 20_000,
    streamingMinutesPerMonth: 10_000,
    captionMinutesPerMonth: 10_000,
    transcriptionMinutesPerMonth: 20_000,
    summariesPerMonth: 5_000,
    concurrentStreams: 10,
    concurrentRecordings: 50,
    ingressEndpoints: 25,
    webhookEndpoints: 1,
    apiRequestsPerSecond: 200,
  },
  enterprise: {
    maxParticipantsPerRoom: 1_000,
    concurrentLiveRooms: 5_000,
    recordingMinutesPerMonth: 1_000_000,
    streamingMinutesPerMonth: 1_000_000,
    captionMinutesPerMonth: 1_000_000,
    transcriptionMinutesPerMonth: 1_000_000,
    summariesPerMonth: 1_000_000,
    concurrentStreams: 100,
    concurrentRecordings: 1_000,
    ingressEndpoints: 250,
    webhookEndpoints: 1,
    apiRequestsPerSecond: 1_000,
  },
} as const satisfies Record<string, Limits>;

export type PlanName = keyof typeof PLANS;
export const PLAN_NAMES = Object.keys(PLANS) as [PlanName, ...PlanName[]];
export const planName = z.enum(PLAN_NAMES);

/** Overrides: any subset of the limits, each a non-negative integer. */
export const entitlementOverrides = z
  .object(
    Object.fromEntries(LIMIT_NAMES.map((n) => [n, z.number().int().min(0).max(1_000_000_000)])) as Record<
      LimitName,
      z.ZodNumber
    >,
  )
  .partial()
  .strict();
export type EntitlementOverrides = z.infer<typeof entitlementOverrides>;

export function resolveLimits(plan: string, overrides: unknown): Limits {
  // Every tenant request resolves limits (rate limit, seat cap): the tenant object comes from the
  // per-process credential cache, so its overrides object is the same one request after request.
  // Resolved once per (overrides object, plan) rather than validated again each time.
  const cacheKey = overrides !== null && typeof overrides === 'object' ? overrides : NO_OVERRIDES;
  let byPlan = resolved.get(cacheKey);
  const hit = byPlan?.get(plan);
  if (hit) return hit;
  const base: Limits = PLANS[plan as PlanName] ?? PLANS.starter;
  const parsed = entitlementOverrides.safeParse(overrides ?? {});
  const limits: Limits = Object.freeze({ ...base, ...(parsed.success ? parsed.data : {}) });
  if (!byPlan) resolved.set(cacheKey, (byPlan = new Map()));
  byPlan.set(plan, limits);
  return limits;
}
const NO_OVERRIDES = {};
const resolved = new WeakMap<object, Map<string, Limits>>();
