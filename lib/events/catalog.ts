import { z } from 'zod';
// Enums straight from the database schema: the catalogue imports nothing from lib/domain (no cycle).
import { CallStatus, EgressJobStatus, ParticipantRole, TranscriptSource } from '@/lib/generated/prisma/enums';

/**
 * The event catalogue. Names relayed from the media layer and platform events from the spec,
 * plus additive call.* lifecycle names. A tenant's webhookEvents filter may name only these.
 */
export const EVENT_NAMES = [
  'room.started',
  'room.finished',
  'room.session.ended',
  'participant.joined',
  'participant.left',
  'participant.waiting',
  'egress.started',
  'egress.ended',
  'ingress.started',
  'ingress.ended',
  'stream.started',
  'stream.ended',
  'recording.completed',
  'recording.failed',
  'transcript.ready',
  'summary.ready',
  'call.queued',
  'call.ringing',
  'call.accepted',
  'call.forwarded',
  'call.ended',
  'call.cancelled',
  'call.missed',
  'webhook.test',
] as const;
export type EventName = (typeof EVENT_NAMES)[number];

export function isEventName(name: string): name is EventName {
  return (EVENT_NAMES as readonly string[]).includes(name);
}

// ───────────────────────────── the data of each event ─────────────────────────────
//
// One zod schema per event for the envelope's `data`: exactly what the emitters send. emitEvent
// (lib/events/outbox.ts) takes EventData<N> for event N, so an emitter that sends a field the
// schema lacks, or lacks one it requires, does not compile. The schemas are never run on the
// delivery path: they are the source of the API reference's `webhooks` section, and of tests.

const timestamp = z.iso.datetime();
const seconds = z.int().nonnegative();

const roomId = z.string().describe('The room (as in GET /api/v1/rooms/{id}).');
const mediaRoomName = z.string().describe('The media-layer room name.');
const participantFields = {
  roomId,
  participantId: z.string().describe('The participant (as in GET /api/v1/rooms/{id}/participants).'),
  externalUserId: z.string().describe('Your user id, as given to join.'),
};

const streamData = z.object({
  streamId: z.string().describe('The stream (as in GET /api/v1/streaming/{id}).'),
  roomId,
  status: z.enum(EgressJobStatus).describe('ACTIVE when it went live; COMPLETED or FAILED when it ended.'),
  error: z.string().nullable().describe('Why the stream failed; null otherwise.'),
});

const egressData = z.object({
  roomId,
  egressId: z.string().nullable().describe('The media-layer egress id.'),
  status: z
    .string()
    .nullable()
    .describe('The media-layer egress status as reported (e.g. EGRESS_ACTIVE, EGRESS_COMPLETE).'),
});
const ingressData = z.object({
  roomId,
  ingressId: z.string().nullable().describe('The media-layer ingress id.'),
  status: z.string().nullable().describe('The media-layer ingress status as reported (e.g. ENDPOINT_PUBLISHING).'),
});

const callData = z.object({
  callId: z.string().describe('The call (as in GET /api/v1/calls/{id}).'),
  queueName: z.string(),
  status: z.enum(CallStatus).describe('The call status after the change the event reports.'),
  callerExternalId: z.string(),
  agentExternalId: z.string().optional().describe('The agent being rung; present while one is.'),
  acceptedByExternalId: z.string().optional().describe('Present once the call was accepted.'),
  roomId: z.string().optional().describe('The call room; present once the call was accepted.'),
  waitDuration: seconds.nullable().describe('Seconds between queuing and answer, cancel or miss; null before.'),
  callDuration: seconds.nullable().describe('Seconds between answer and end; null before.'),
});

/** The data of webhook.test, also sent under any other name by POST /api/v1/webhooks/test {event}. */
const testEventData = z.object({ test: z.literal(true), message: z.string() });
export const TEST_EVENT_DATA: z.output<typeof testEventData> = {
  test: true,
  message: 'This is a test event from Convene.',
};

export const EVENT_DATA = {
  'room.started': z
    .object({ roomId, mediaRoomName, status: z.literal('ACTIVE'), startedAt: timestamp })
    .describe('The media room started: the room is ACTIVE.'),
  'room.finished': z
    .object({
      roomId,
      mediaRoomName,
      status: z.literal('ENDED'),
      startedAt: timestamp.nullable().describe('Null if the room never started.'),
      endedAt: timestamp,
      duration: seconds.nullable().describe('Seconds between start and end; null if the room never started.'),
    })
    .describe('The room ended (by the end endpoint, the media layer or a lifecycle rule); exactly once per end.'),
  'room.session.ended': z
    .object({
      sessionId: z.string().describe('The session (as in GET /api/v1/sessions/{id}, which lists its attendance).'),
      roomId,
      startedAt: timestamp.describe('The first connection (or the media room starting), whichever came first.'),
      endedAt: timestamp,
      duration: seconds.describe('Seconds between start and end.'),
      peakParticipants: z.int().nonnegative().describe('Most participants connected at once.'),
      uniqueAttendees: z.int().nonnegative().describe('Distinct participants who connected.'),
    })
    .describe(
      'A room session ended (the room ended): its summary. Sent with room.finished, once per session; attendance may still be corrected by late media webhooks, so read GET /api/v1/sessions/{id} for the final record.',
    ),
  'participant.joined': z
    .object({ ...participantFields, role: z.enum(ParticipantRole), joinedAt: timestamp })
    .describe('A participant connected to the media room.'),
  'participant.left': z
    .object({
      ...participantFields,
      role: z.enum(ParticipantRole),
      leftAt: timestamp,
      duration: seconds.describe('Seconds connected, summed over sessions.'),
    })
    .describe('A participant disconnected from the media room.'),
  'participant.waiting': z
    .object(participantFields)
    .describe(
      'A participant was parked in the waiting room (first park only); approve with POST /api/v1/rooms/{id}/participants/{participantId}/approve.',
    ),
  'egress.started': egressData.describe('A media-layer egress (recording or stream) of the room started.'),
  'egress.ended': egressData.describe(
    'A media-layer egress of the room stopped; it says only that egress stopped (see recording.completed).',
  ),
  'ingress.started': ingressData.describe('A media-layer ingress into the room started.'),
  'ingress.ended': ingressData.describe('A media-layer ingress into the room ended.'),
  'stream.started': streamData.describe(
    'An RTMP stream of the room went live (its egress started): status ACTIVE. Sent with egress.started.',
  ),
  'stream.ended': streamData.describe(
    'An RTMP stream of the room ended: status COMPLETED, or FAILED with the reason (a refused destination, the encoder). Sent with egress.ended.',
  ),
  'recording.completed': z
    .object({
      recordingId: z.string().describe('Download with GET /api/v1/recordings/{id}/download.'),
      roomId,
      sizeBytes: z.int().nonnegative(),
      duration: seconds.nullable().describe('Seconds recorded; null if the start was never reported.'),
    })
    .describe('A recording is complete and its file is confirmed in storage.'),
  'recording.failed': z
    .object({ recordingId: z.string(), roomId, error: z.string().describe('Why the recording failed.') })
    .describe('A recording failed (the egress failed, or its file is missing or empty in storage).'),
  'transcript.ready': z
    .object({
      transcriptId: z.string().describe('Read it with GET /api/v1/transcripts/{id} (JSON, WebVTT, SRT or text).'),
      recordingId: z
        .string()
        .nullable()
        .describe(
          'The composite recording it was made from; null for one made from participant recordings or captions.',
        ),
      roomId,
      sessionId: z.string().nullable().describe('The room session (meeting) it covers, if known.'),
      source: z
        .enum(TranscriptSource)
        .describe(
          "RECORDING (a composite's mixed audio), PARTICIPANT_RECORDINGS (each speaker's own audio) or CAPTIONS (the live captions).",
        ),
    })
    .describe('An AI transcript reached COMPLETED.'),
  'summary.ready': z
    .object({
      summaryId: z.string().describe('Read it with GET /api/v1/summaries/{id}.'),
      transcriptId: z.string(),
      roomId,
      sessionId: z.string().nullable(),
      kind: z.string().describe('The built-in kind it was made as: general, standup or interview.'),
    })
    .describe('An AI summary of a transcript reached COMPLETED; it is stored with the transcript.'),
  'call.queued': callData.describe('A call was queued.'),
  'call.ringing': callData.describe('A queued call is ringing an agent.'),
  'call.accepted': callData.describe('A call was accepted; its room exists.'),
  'call.forwarded': callData.describe('A call was forwarded to another agent.'),
  'call.ended': callData.describe('An accepted call ended (its room is ended too).'),
  'call.cancelled': callData.describe('A waiting call was cancelled.'),
  'call.missed': callData.describe('A waiting call was missed.'),
  'webhook.test': testEventData.describe('A synthetic event sent by POST /api/v1/webhooks/test.'),
} as const satisfies Record<EventName, z.ZodObject>;

type AllOf<U> = (U extends unknown ? (x: U) => void : never) extends (x: infer I) => void ? I : never;

/**
 * The data of event N. For a union of names (an emitter choosing the name at run time) the data
 * must satisfy every one of them, so names with different shapes cannot share one call.
 */
export type EventData<N extends EventName> = AllOf<z.output<(typeof EVENT_DATA)[N]>>;

/** The v2 envelope of event N as delivered (lib/events/delivery.ts envelopeBody). */
export function eventEnvelope<N extends EventName>(name: N) {
  return z.object({
    version: z.literal(2),
    id: z
      .string()
      .regex(/^evt_/)
      .describe('The event id; equals x-webhook-id, the same on every retry and replay: dedupe on it.'),
    event: z.literal(name),
    occurredAt: timestamp.describe('When it happened; equals x-webhook-timestamp.'),
    data: EVENT_DATA[name],
  });
}
