import { z } from 'zod';
import { DEFAULT_RECORDING_PRESET, ROLES, recordingPreset } from '@/lib/domain/rooms.schemas';
import { PERMISSIONS } from '@/lib/domain/permissions';
import { LIMIT_NAMES, PLAN_NAMES, entitlementOverrides, type LimitName } from '@/lib/domain/plans';
import { EVENT_NAMES } from '@/lib/events/catalog';
import { LANGUAGES } from '@/lib/i18n/languages';

/**
 * Response schemas: the shapes the view functions return, and the source of the API reference's
 * success responses. The views are typed with these (z.output), and route() checks each handler's
 * result against its `response` schema at compile time, so the document cannot drift from what
 * is sent. They are never run on a response in production: documentation and tests only.
 *
 * Each named shape is registered in `responseComponents`; the OpenAPI document emits one
 * component per name and $refs to it wherever it appears.
 */
export const responseComponents = z.registry<{ id: string; description?: string }>();

function named<S extends z.ZodType>(id: string, description: string, schema: S): S {
  responseComponents.add(schema, { id, description });
  return schema;
}

/** A list page: newest first unless stated; nextCursor null on the last page (and for unpaginated lists). */
function page<S extends z.ZodType>(id: string, item: S, what: string) {
  return named(id, `A page of ${what}.`, z.object({ data: z.array(item), nextCursor: z.string().nullable() }));
}

const timestamp = z.iso.datetime();
const nullableTimestamp = timestamp.nullable();
/** Any JSON value the integrator stored (object, or null when unset). */
const json = z.unknown().describe('Any JSON value, as stored by the integrator (null when unset).');

// ───────────────────────────── rooms and participants ─────────────────────────────

export const CONNECTION_STATES = ['PENDING', 'WAITING', 'CONNECTED', 'DISCONNECTED', 'DENIED', 'REMOVED'] as const;
const role = z.enum(ROLES);

export const participantResponse = named(
  'Participant',
  'A participant of a room (one row per external user per room).',
  z.object({
    id: z.string(),
    roomId: z.string(),
    externalUserId: z.string(),
    displayName: z.string(),
    avatarUrl: z.string().nullable(),
    mediaIdentity: z.string(),
    mediaSid: z.string().nullable(),
    role,
    canPublish: z.boolean(),
    canSubscribe: z.boolean(),
    canPublishData: z.boolean(),
    canScreenShare: z.boolean(),
    canRecord: z.boolean(),
    isApproved: z.boolean(),
    approvedBy: z.string().nullable(),
    connectionState: z.enum(CONNECTION_STATES),
    joinedAt: nullableTimestamp,
    leftAt: nullableTimestamp,
    /** Seconds connected, summed over sessions. */
    duration: z.int().nullable(),
    rejoinCount: z.int(),
    externalRole: z.string().nullable(),
    externalMetadata: json,
    breakoutId: z.string().nullable(),
    createdAt: timestamp,
    updatedAt: timestamp,
  }),
);
export type ParticipantResponse = z.output<typeof participantResponse>;

export const roomResponse = named(
  'Room',
  'A room, with its participants.',
  z.object({
    id: z.string(),
    tenantId: z.string(),
    name: z.string(),
    slug: z.string(),
    mediaRoomName: z.string(),
    type: z.enum(['INSTANT', 'SCHEDULED', 'CALL', 'BREAKOUT']),
    maxParticipants: z.int(),
    enableRecording: z.boolean(),
    enableChat: z.boolean(),
    enableScreenShare: z.boolean(),
    enableWaitingRoom: z.boolean(),
    enableE2EE: z.boolean(),
    enableAiFeatures: z.boolean(),
    allowPublicJoin: z.boolean(),
    recordingPreset: recordingPreset.describe(
      `The egress encoding preset recordings of this room use (default ${DEFAULT_RECORDING_PRESET}).`,
    ),
    isLocked: z.boolean(),
    autoRecord: z.boolean(),
    status: z.enum(['WAITING', 'ACTIVE', 'ENDED']),
    scheduledAt: nullableTimestamp,
    startedAt: nullableTimestamp,
    autoEndAt: nullableTimestamp,
    endedAt: nullableTimestamp,
    duration: z.int().nullable(),
    mediaSid: z.string().nullable(),
    activeParticipants: z.int(),
    reopenCount: z.int(),
    createdByExternalId: z.string(),
    externalId: z.string().nullable(),
    externalType: z.string().nullable(),
    externalMetadata: json,
    createdAt: timestamp,
    updatedAt: timestamp,
    participants: z
      .array(participantResponse)
      .describe(
        'Who is in the room or on their way in (PENDING, WAITING, CONNECTED; not those who left, were removed or denied), in join order, at most 50. GET /rooms/{id}/participants pages through every participant.',
      ),
  }),
);
export type RoomResponse = z.output<typeof roomResponse>;
export const roomPage = page('RoomPage', roomResponse, 'rooms');
export const participantPage = page('ParticipantPage', participantResponse, 'participants');

/** The non-private room facts a participant token's metadata carries. */
const roomFacts = {
  metaVersion: z.int(),
  roomId: z.string(),
  roomName: z.string(),
  enableE2EE: z.boolean(),
  enableRecording: z.boolean(),
  autoRecord: z.boolean(),
  enableAiFeatures: z.boolean(),
  enableChat: z.boolean(),
  enableWaitingRoom: z.boolean(),
};
export const roomInfoResponse = named(
  'RoomInfo',
  'The non-private facts of a room (no credential needed).',
  z.object({
    id: z.string(),
    name: z.string(),
    type: roomResponse.shape.type,
    status: roomResponse.shape.status,
    enableScreenShare: z.boolean(),
    isLocked: z.boolean(),
    scheduledAt: nullableTimestamp,
    ...roomFacts,
  }),
);

export const joinResponse = named(
  'JoinResult',
  'Join: a participant token and hosted-UI URL, or (waiting room) an admission URL to poll until a host approves.',
  z.discriminatedUnion('waitingForApproval', [
    z.object({
      token: z.string().describe('The participant token (a media-layer JWT).'),
      mediaUrl: z.string(),
      joinUrl: z.string().describe('The hosted call UI for this participant.'),
      waitingForApproval: z.literal(false),
      participant: participantResponse,
      room: roomResponse,
    }),
    z.object({
      token: z.null(),
      mediaUrl: z.null(),
      joinUrl: z.null(),
      waitingForApproval: z.literal(true),
      admissionUrl: z.string().describe('The hosted waiting page; its fragment holds the admission secret.'),
      participant: participantResponse,
      room: roomResponse,
    }),
  ]),
);
export type JoinResponse = z.output<typeof joinResponse>;

export const admissionResponse = named(
  'AdmissionStatus',
  'A waiting participant’s admission: a token once approved.',
  z.object({
    status: z.enum(['waiting', 'denied', 'approved']),
    token: z.string().nullable(),
    mediaUrl: z.string().nullable(),
    joinUrl: z.string().nullable(),
    participant: participantResponse,
  }),
);
export type AdmissionResponse = z.output<typeof admissionResponse>;

export const muteAllResponse = named(
  'MuteAllResult',
  'How many audio tracks were muted.',
  z.object({ roomId: z.string(), mutedTracks: z.int() }),
);

export const breakoutResponse = named(
  'Breakout',
  'A breakout room of a room.',
  z.object({
    id: z.string(),
    roomId: z.string(),
    name: z.string(),
    mediaRoomName: z.string(),
    status: z.enum(['OPEN', 'CLOSED']),
    createdByExternalId: z.string(),
    createdAt: timestamp,
    closedAt: nullableTimestamp,
  }),
);
export type BreakoutResponse = z.output<typeof breakoutResponse>;
export const breakoutPage = page('BreakoutPage', breakoutResponse, 'breakouts (oldest first, unpaginated)');
export const breakoutMoveResponse = named(
  'BreakoutMove',
  'The moved participant and its breakout.',
  z.object({ participant: participantResponse, breakout: breakoutResponse }),
);

// ───────────────────────────── participant token (/me) ─────────────────────────────

export const meResponse = named(
  'Me',
  'Who a participant token belongs to, per our records.',
  z.object({
    participant: participantResponse,
    room: z.object({ ...roomFacts, isLocked: z.boolean(), status: roomResponse.shape.status }),
    isModerator: z.boolean(),
    entry: z
      .enum(['open', 'locked', 'full', 'ended', 'removed', 'denied'])
      .describe(
        'Whether this participant can go in now: open (they hold a seat, or one is free); locked (the room is locked and they hold no seat; hosts and moderators excepted); full (no seat is free and they hold none); ended; removed (a host or the API removed them); denied (refused from the waiting room). Removed and denied participants can read this and nothing else with their token.',
      ),
  }),
);
export const roomLockResponse = named(
  'RoomLock',
  'The room’s lock state.',
  z.object({ roomId: z.string(), isLocked: z.boolean() }),
);
export const waitingParticipantResponse = named(
  'WaitingParticipant',
  'A participant parked in the waiting room.',
  z.object({
    id: z.string(),
    displayName: z.string(),
    avatarUrl: z.string().nullable(),
    role,
    waitingSince: timestamp,
  }),
);
export const waitingPage = page(
  'WaitingParticipantPage',
  waitingParticipantResponse,
  'waiting participants (longest waiting first, up to 100)',
);

// ───────────────────────────── tenants, keys, usage ─────────────────────────────

export const limitsResponse = named(
  'Limits',
  'Resolved plan limits: the plan merged with the provider’s overrides.',
  z.object(Object.fromEntries(LIMIT_NAMES.map((n) => [n, z.int()])) as Record<LimitName, z.ZodInt>),
);

export const tenantWebhookResponse = named(
  'TenantWebhook',
  'Webhook settings: never the secret, only whether one is configured.',
  z.object({
    url: z.string().nullable(),
    events: z.array(z.enum(EVENT_NAMES)).nullable().describe('The event filter; null = every event.'),
    secretConfigured: z.boolean(),
    previousSecretExpiresAt: nullableTimestamp.describe('While a rotated-out secret still signs deliveries.'),
  }),
);

const brandingShape = {
  productName: z.string().nullable().describe('Shown beside the logo and in the page title.'),
  logoUrl: z.string().nullable().describe('https URL of the logo (shown at most 40 px high, 160 px wide).'),
  accentColor: z.string().nullable().describe('#rrggbb; buttons and highlights, with white text on it.'),
  backgroundColor: z.string().nullable().describe('#rrggbb; the page ground, with light text on it.'),
  backgroundImageUrl: z
    .string()
    .nullable()
    .describe('https URL of an image over the background colour, under a dark veil.'),
  defaultLanguage: z
    .enum(LANGUAGES)
    .nullable()
    .describe('The call UI language when the join URL names none (before the browser’s).'),
};

export const brandingResponse = named(
  'Branding',
  'Hosted call UI branding as set (null = not set: the provider’s default applies, then Convene’s).',
  z.object(brandingShape),
);

export const resolvedBrandingResponse = named(
  'ResolvedBranding',
  'The branding the hosted call UI shows: the tenant’s own, else its provider’s default, else Convene’s.',
  z.object({ ...brandingShape, productName: z.string(), accentColor: z.string(), backgroundColor: z.string() }),
);

export const tenantBrandingResponse = named(
  'TenantBranding',
  'A tenant’s own branding and the branding its hosted call UI shows (`effective`).',
  z.object({ ...brandingShape, effective: resolvedBrandingResponse }),
);

export const tenantResponse = named(
  'Tenant',
  'A tenant, as the tenant and its provider see it.',
  z.object({
    id: z.string(),
    name: z.string(),
    status: z.enum(['ACTIVE', 'SUSPENDED']),
    isTestMode: z.boolean(),
    plan: z.enum(PLAN_NAMES),
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

const apiKeyShape = {
  id: z.string(),
  name: z.string().nullable(),
  mode: z.enum(['live', 'test']),
  hint: z.string().describe('cv_live_…abcd: the last four characters only.'),
  permissions: z.array(z.enum(PERMISSIONS)),
  status: z.enum(['active', 'expiring', 'expired', 'revoked']),
  expiresAt: nullableTimestamp,
  revokedAt: nullableTimestamp,
  lastUsedAt: nullableTimestamp,
  createdAt: timestamp,
};
export const apiKeyResponse = named('ApiKey', 'An API key: never the key itself.', z.object(apiKeyShape));
export type ApiKeyResponse = z.output<typeof apiKeyResponse>;
export const apiKeyPage = page('ApiKeyPage', apiKeyResponse, 'API keys (unpaginated)');
export const createdApiKeyResponse = named(
  'ApiKeyWithSecret',
  'A new API key with its plaintext, shown this once.',
  z.object({ ...apiKeyShape, plainTextKey: z.string() }),
);
export const apiKeyRotationResponse = named(
  'ApiKeyRotation',
  'A rotation: the new key (plaintext shown once) and the rotated-out key.',
  z.object({ plainTextKey: z.string(), apiKey: apiKeyResponse, previousKey: apiKeyResponse }),
);
export const provisionedTenantResponse = named(
  'ProvisionedTenant',
  'A new tenant with its first API key and webhook secret, shown this once.',
  z.object({ tenant: tenantResponse, apiKey: createdApiKeyResponse, webhookSecret: z.string() }),
);

const usageTotals = {
  apiRequests: z.number(),
  participantMinutes: z.number(),
  recordingMinutes: z.number(),
  streamingMinutes: z.number(),
  captionMinutes: z.number(),
};
export const usageResponse = named(
  'Usage',
  'Daily usage (UTC days, from..to inclusive) and month-to-date totals.',
  z.object({
    from: z.iso.date(),
    to: z.iso.date(),
    data: z.array(z.object({ day: z.iso.date(), ...usageTotals })),
    monthToDate: z.object(usageTotals),
  }),
);

// ───────────────────────────── webhooks ─────────────────────────────

export const webhookSecretRotationResponse = named(
  'WebhookSecretRotation',
  'The new webhook secret, shown this once.',
  z.object({ webhookSecret: z.string(), previousSecretExpiresAt: nullableTimestamp }),
);
export const webhookTestResponse = named(
  'WebhookTestResult',
  'The queued test event and its delivery.',
  z.object({ eventId: z.string(), deliveryId: z.string(), event: z.enum(EVENT_NAMES), status: z.literal('pending') }),
);
export const webhookAttemptResponse = named(
  'WebhookAttempt',
  'One HTTP attempt of a delivery.',
  z.object({
    attemptNumber: z.int(),
    requestUrl: z.string(),
    requestHeaders: z.record(z.string(), z.string()),
    requestBody: z.string(),
    responseStatus: z.int().nullable(),
    responseBody: z.string().nullable(),
    error: z.string().nullable(),
    durationMs: z.int(),
    willRetry: z.boolean(),
    nextRetryAt: nullableTimestamp,
    createdAt: timestamp,
  }),
);
export type WebhookAttemptResponse = z.output<typeof webhookAttemptResponse>;
export const webhookDeliveryResponse = named(
  'WebhookDelivery',
  'One event’s delivery to the tenant’s endpoint, with its attempts (oldest first).',
  z.object({
    id: z.string(),
    eventId: z.string(),
    event: z.enum(EVENT_NAMES),
    url: z.string(),
    status: z.enum(['pending', 'retrying', 'delivered', 'failed']),
    attemptCount: z.int(),
    nextAttemptAt: nullableTimestamp,
    deliveredAt: nullableTimestamp,
    lastError: z.string().nullable(),
    replayOfId: z.string().nullable(),
    createdAt: timestamp,
    attempts: z.array(webhookAttemptResponse),
  }),
);
export type WebhookDeliveryResponse = z.output<typeof webhookDeliveryResponse>;
export const webhookDeliveryPage = page('WebhookDeliveryPage', webhookDeliveryResponse, 'webhook deliveries');

// ───────────────────────────── engagement ─────────────────────────────

const CALL_STATUSES = ['QUEUED', 'RINGING', 'ACCEPTED', 'ENDED', 'CANCELLED', 'MISSED'] as const;
export const callResponse = named(
  'Call',
  'A queued call. queuePosition (1-based, null once no longer waiting) is present where computed; room once accepted.',
  z.object({
    id: z.string(),
    tenantId: z.string(),
    roomId: z.string().nullable(),
    callerExternalId: z.string(),
    callerDisplayName: z.string(),
    callerMetadata: json,
    targetExternalId: z.string().nullable(),
    targetDisplayName: z.string().nullable(),
    queueName: z.string(),
    priority: z.int(),
    skills: z.array(z.string()),
    status: z.enum(CALL_STATUSES),
    ringingExternalId: z.string().nullable(),
    acceptedByExternalId: z.string().nullable(),
    acceptedByDisplayName: z.string().nullable(),
    forwardedToExternalId: z.string().nullable(),
    forwardedByExternalId: z.string().nullable(),
    queuedAt: timestamp,
    ringingAt: nullableTimestamp,
    answeredAt: nullableTimestamp,
    endedAt: nullableTimestamp,
    cancelledAt: nullableTimestamp,
    waitDuration: z.int().nullable(),
    callDuration: z.int().nullable(),
    externalId: z.string().nullable(),
    externalMetadata: json,
    notes: z.string().nullable(),
    createdAt: timestamp,
    updatedAt: timestamp,
    queuePosition: z.int().nullable().optional(),
    room: roomResponse.nullable(),
  }),
);
export type CallResponse = z.output<typeof callResponse>;
export const callPage = page('CallPage', callResponse, 'calls, next up first (priority, then oldest)');
export const callAcceptedResponse = named(
  'CallAccepted',
  'An accepted call: its room and a token for the caller and the agent.',
  z.object({
    call: callResponse,
    room: roomResponse,
    callerToken: z.string(),
    agentToken: z.string(),
    callerJoinUrl: z.string(),
    agentJoinUrl: z.string(),
    mediaUrl: z.string(),
    participants: z.object({ caller: participantResponse, agent: participantResponse }),
  }),
);

export const pollResponse = named(
  'Poll',
  'A poll with live counts. `votes` (who voted for what) only for non-anonymous polls.',
  z.object({
    id: z.string(),
    roomId: z.string(),
    question: z.string(),
    status: z.enum(['DRAFT', 'OPEN', 'CLOSED']),
    isAnonymous: z.boolean(),
    allowMultiple: z.boolean(),
    totalVotes: z.int().describe('Ballots (voters), not picks.'),
    options: z.array(z.object({ id: z.string(), text: z.string(), order: z.int(), count: z.int() })),
    votes: z.array(z.object({ optionId: z.string(), voterExternalId: z.string() })).optional(),
    createdByExternalId: z.string().nullable(),
    createdAt: timestamp,
    openedAt: nullableTimestamp,
    closedAt: nullableTimestamp,
  }),
);
export type PollResponse = z.output<typeof pollResponse>;
export const pollPage = page('PollPage', pollResponse, 'polls (unpaginated)');

export const questionResponse = named(
  'Question',
  'A Q&A question.',
  z.object({
    id: z.string(),
    roomId: z.string(),
    text: z.string(),
    status: z.enum(['OPEN', 'ANSWERED', 'DISMISSED']),
    askerExternalId: z.string().nullable(),
    askerName: z.string().nullable(),
    upvoteCount: z.int(),
    answerText: z.string().nullable(),
    answeredByExternalId: z.string().nullable(),
    answeredAt: nullableTimestamp,
    dismissedByExternalId: z.string().nullable(),
    dismissedAt: nullableTimestamp,
    createdAt: timestamp,
  }),
);
export type QuestionResponse = z.output<typeof questionResponse>;
export const questionPage = page('QuestionPage', questionResponse, 'questions (up to 500, in the requested order)');

// ───────────────────────────── media features ─────────────────────────────

const EGRESS_STATUSES = ['STARTING', 'ACTIVE', 'STOPPING', 'COMPLETED', 'FAILED'] as const;
export const recordingResponse = named(
  'Recording',
  'A room recording. COMPLETED only once the file is confirmed in storage.',
  z.object({
    id: z.string(),
    roomId: z.string(),
    status: z.enum(EGRESS_STATUSES),
    preset: z.string().nullable(),
    sizeBytes: z.number().nullable(),
    duration: z.int().nullable(),
    createdByExternalId: z.string().nullable(),
    startedAt: nullableTimestamp,
    endedAt: nullableTimestamp,
    error: z.string().nullable(),
    createdAt: timestamp,
    updatedAt: timestamp,
  }),
);
export type RecordingResponse = z.output<typeof recordingResponse>;
export const recordingPage = page('RecordingPage', recordingResponse, 'recordings');
export const deletedResponse = named(
  'Deleted',
  'The id of what was deleted.',
  z.object({ id: z.string(), deleted: z.literal(true) }),
);

export const transcriptResponse = named(
  'Transcript',
  'A transcript of a completed recording.',
  z.object({
    id: z.string(),
    recordingId: z.string(),
    roomId: z.string(),
    status: z.enum(['PENDING', 'PROCESSING', 'COMPLETED', 'FAILED']),
    language: z.string().nullable(),
    text: z.string().nullable(),
    segments: z
      .array(z.looseObject({ start: z.number(), end: z.number(), text: z.string(), speaker: z.string().optional() }))
      .nullable(),
    provider: z.string().nullable(),
    error: z.string().nullable(),
    createdAt: timestamp,
    completedAt: nullableTimestamp,
  }),
);
export type TranscriptResponse = z.output<typeof transcriptResponse>;
export const transcriptPage = page('TranscriptPage', transcriptResponse, 'transcripts (unpaginated)');

export const streamResponse = named(
  'Stream',
  'A live stream (RTMP out). Destinations are masked: stream keys are never stored or returned.',
  z.object({
    id: z.string(),
    roomId: z.string(),
    status: z.enum(EGRESS_STATUSES),
    destinations: z.array(z.string()),
    createdByExternalId: z.string().nullable(),
    startedAt: nullableTimestamp,
    endedAt: nullableTimestamp,
    duration: z.int().nullable(),
    error: z.string().nullable(),
    createdAt: timestamp,
  }),
);
export type StreamResponse = z.output<typeof streamResponse>;

export const ingressResponse = named(
  'Ingress',
  'An ingress endpoint (RTMP or WHIP in). The stream key is the tenant’s credential for pushing.',
  z.object({
    id: z.string(),
    roomId: z.string(),
    mediaIngressId: z.string(),
    name: z.string(),
    inputType: z.enum(['RTMP', 'WHIP']),
    enableTranscoding: z.boolean(),
    participantIdentity: z.string(),
    participantName: z.string(),
    ingressUrl: z.string().nullable(),
    streamKey: z.string().nullable(),
    status: z.enum(['CREATED', 'ACTIVE', 'ENDED', 'DELETED']),
    createdByExternalId: z.string(),
    createdAt: timestamp,
    updatedAt: timestamp,
  }),
);
export type IngressResponse = z.output<typeof ingressResponse>;

export const captionStatusResponse = named(
  'CaptionStatus',
  'Live captions in a room: the latest session, if any.',
  z.object({
    roomId: z.string(),
    active: z.boolean(),
    sessionId: z.string().nullable(),
    language: z.string().nullable(),
    startedAt: nullableTimestamp,
    stoppedAt: nullableTimestamp,
    startedByExternalId: z.string().nullable(),
  }),
);
export type CaptionStatusResponse = z.output<typeof captionStatusResponse>;

// ───────────────────────────── operations ─────────────────────────────

export const healthResponse = named(
  'Health',
  'Liveness and readiness.',
  z.object({ status: z.literal('ok'), database: z.literal('ok'), time: timestamp }),
);
