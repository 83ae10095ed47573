import type { CaptionSession, Room, Tenant } from '@/lib/generated/prisma/client';
import type { z } from 'zod';
import { db, type Tx } from '@/lib/db';
import { config } from '@/lib/config';
import { ApiError, invalidState } from '@/lib/errors';
import { mediaFor } from '@/lib/domain/media';
import { findRoom } from '@/lib/domain/rooms';
import { assertBillableMediaAllowed } from '@/lib/domain/tenants';
import { minutesThisMonth } from '@/lib/domain/recordings';
import { addUsage } from '@/lib/domain/usage';
import type { captionsInput, CaptionStatusResponse } from '@/lib/domain/captions.schemas';
import { iso } from '@/lib/domain/time';
import { broadcast } from '@/lib/domain/live-updates';
import { log } from '@/lib/log';
import { LIVE_TOPICS } from '@/lib/live-topics';
import type { ParticipantCredential } from '@/lib/domain/me';
import { captionsAgentIdentity, dispatchOfCaptionsAgent } from '@/lib/domain/captions-agent';
import {
  addLiveSegments,
  completeLiveTranscripts,
  LIVE_TRANSCRIPT_LIMITS,
  openLiveTranscript,
} from '@/lib/domain/live-transcripts';
import { enqueueNotesJob } from '@/lib/runtime/notes-jobs';
import type { captionSegmentsInput } from '@/lib/domain/captions.schemas';

/**
 * Live captions: a captioning agent dispatched into the room through the media layer's agent
 * dispatch (LIVEKIT_CAPTIONS_AGENT); captions reach participants as the media layer's
 * transcription stream. Convene's captions worker (agents/captions) answers the dispatch when a
 * speech-to-text service is configured (STT_BASE_URL): without one, starting is refused
 * (CAPTIONS_NOT_CONFIGURED) rather than reported active with nobody to caption. Allowed only with
 * enableAiFeatures and never with E2EE. Starting while captions run returns the running session;
 * stopping when none runs is 409. The status says whether the agent is in the room now.
 */
async function captionView(tenant: Tenant, room: Room, session: CaptionSession | null): Promise<CaptionStatusResponse> {
  const active = session?.status === 'ACTIVE';
  return {
    roomId: room.id,
    active,
    configured: captionsConfigured(),
    agentJoined: active && session.mediaDispatchId ? await agentInRoom(tenant, room, session.mediaDispatchId) : false,
    sessionId: session?.id ?? null,
    language: session?.language ?? null,
    startedAt: iso(session?.startedAt),
    stoppedAt: iso(session?.stoppedAt),
    startedByExternalId: session?.startedByExternalId ?? null,
  };
}

/** Whether this installation runs the captions worker: it needs a speech-to-text service. */
function captionsConfigured() {
  return !!config().STT_BASE_URL;
}

/** Whether the captions agent of a dispatch is in the room (a media layer that cannot say: not known to be). */
async function agentInRoom(tenant: Tenant, room: Room, dispatchId: string) {
  try {
    return await mediaFor(tenant).isInRoom(room.mediaRoomName, captionsAgentIdentity(dispatchId));
  } catch (err) {
    log.warn({ err: (err as Error).message, roomId: room.id }, 'captions agent presence unknown');
    return false;
  }
}

/** Throws what starting captions in this room now would be refused with (the host's call asks this too). */
export async function assertCaptionsAllowed(tenant: Tenant, room: Room) {
  if (!captionsConfigured())
    throw new ApiError(
      'CAPTIONS_NOT_CONFIGURED',
      'Live captions are not available here: no speech-to-text service is configured (STT_BASE_URL), so no captions worker runs.',
    );
  assertBillableMediaAllowed(tenant, 'captions', await minutesThisMonth(tenant.id, 'caption_minutes'));
  if (room.enableE2EE)
    throw new ApiError('FEATURE_DISABLED', 'Captions are never available in an end-to-end encrypted room.');
  if (!room.enableAiFeatures)
    throw new ApiError('FEATURE_DISABLED', 'Captions need the room to opt in to AI features (enableAiFeatures).');
  if (room.status === 'ENDED') throw invalidState('The room has ended.');
}

export async function startCaptions(tenant: Tenant, input: z.infer<typeof captionsInput>) {
  const room = await findRoom(tenant.id, input.roomId);
  await assertCaptionsAllowed(tenant, room);
  const running = await db().captionSession.findFirst({ where: { roomId: room.id, status: 'ACTIVE' } });
  if (running) return captionView(tenant, room, running);
  const dispatch = await mediaFor(tenant).createAgentDispatch(
    room.mediaRoomName,
    config().LIVEKIT_CAPTIONS_AGENT,
    // segmentsUrl: where the worker sends each final segment, kept as the meeting's live transcript.
    JSON.stringify({ language: input.language, roomId: room.id, segmentsUrl: captionSegmentsUrl() }),
  );
  const session = await db().$transaction(async (tx) => {
    await openLiveTranscript(room, { language: input.language, tx });
    return tx.captionSession.create({
      data: {
        tenantId: tenant.id,
        roomId: room.id,
        language: input.language,
        mediaDispatchId: dispatch.dispatchId,
        startedByExternalId: input.startedByExternalId ?? null,
      },
    });
  });
  await announceCaptions(tenant, room, session);
  return captionView(tenant, room, session);
}

/**
 * What the call page believes about captions: whether they run and the one identity whose
 * transcriptions it shows (a participant's own transcription packets are never shown).
 */
function callCaptionsView(session: CaptionSession | null) {
  const active = session?.status === 'ACTIVE' && !!session.mediaDispatchId;
  return { active, agentIdentity: active ? captionsAgentIdentity(session.mediaDispatchId!) : null };
}

/** Tells everyone in the call that captions started or stopped (a nudge; the page can also ask). */
function announceCaptions(tenant: Tenant, room: Room, session: CaptionSession) {
  return broadcast({
    tenant,
    room,
    topic: LIVE_TOPICS.captions,
    payload: { type: 'captions.state', ...callCaptionsView(session) },
  });
}

/** GET /api/v1/me/captions: the captions state of the caller's room, for the call page. */
export async function captionsForCall({ room }: ParticipantCredential) {
  const running = await db().captionSession.findFirst({ where: { roomId: room.id, status: 'ACTIVE' } });
  return callCaptionsView(running);
}

export async function stopCaptions(tenant: Tenant, roomId: string, now = new Date()) {
  const room = await findRoom(tenant.id, roomId);
  const running = await db().captionSession.findFirst({ where: { roomId: room.id, status: 'ACTIVE' } });
  if (!running) throw invalidState('Captions are not running in this room.');
  if (running.mediaDispatchId) await mediaFor(tenant).deleteAgentDispatch(running.mediaDispatchId, room.mediaRoomName);
  const stopped = await db().captionSession.update({
    where: { id: running.id },
    data: { status: 'STOPPED', stoppedAt: now },
  });
  countCaptionMinutes(running, now);
  await announceCaptions(tenant, room, stopped);
  return captionView(tenant, room, stopped);
}

function countCaptionMinutes(session: CaptionSession, now: Date) {
  addUsage({
    tenantId: session.tenantId,
    metric: 'caption_minutes',
    amount: Math.max(1, Math.ceil((now.getTime() - session.startedAt.getTime()) / 60_000)),
    at: now,
  });
}

/**
 * A room that ends stops its captions: the session reads STOPPED and its minutes are counted; the
 * meeting's live transcript completes (transcript.ready), and its summary is queued.
 */
export async function stopCaptionsOfEndedRoom(roomId: string, now: Date, { tx }: { tx: Tx }) {
  const summaries = await completeLiveTranscripts(roomId, now, { tx });
  // Queued a moment later: the summaries are rows of this transaction, which commits first.
  for (const id of summaries) void enqueueNotesJob('summary', id, { startAfterSeconds: 1 });
  const running = await tx.captionSession.findMany({ where: { roomId, status: 'ACTIVE' } });
  if (!running.length) return;
  await tx.captionSession.updateMany({
    where: { id: { in: running.map((s) => s.id) } },
    data: { status: 'STOPPED', stoppedAt: now },
  });
  for (const session of running) countCaptionMinutes(session, now);
}

export async function captionStatus(tenant: Tenant, roomId: string) {
  const room = await findRoom(tenant.id, roomId);
  const latest = await db().captionSession.findFirst({ where: { roomId: room.id }, orderBy: { startedAt: 'desc' } });
  return captionView(tenant, room, latest);
}

/** Where the captions worker sends final segments (told in the dispatch's metadata). */
function captionSegmentsUrl() {
  return `${config().PUBLIC_BASE_URL.replace(/\/+$/, '')}/api/v1/captions/segments`;
}

const notTheAgent = () => new ApiError('UNAUTHENTICATED', "Send the captions agent's media token of this room.");

/**
 * POST /api/v1/captions/segments: the captions worker's final segments, kept as the meeting's live
 * transcript. The worker authenticates with the media token it joined the room with: only a
 * holder of the room's media API secret can sign one for the captions agent's identity, and the
 * identity names the dispatch, so the room's captions session. Taken while captions run, and for
 * a short while after they stop (segments in flight); dropped once the room has ended.
 */
export async function receiveCaptionSegments(
  authorization: string | null,
  input: z.infer<typeof captionSegmentsInput>,
  now = new Date(),
) {
  const token = /^Bearer (\S+)$/.exec(authorization ?? '')?.[1];
  if (!token) throw notTheAgent();
  let claimed: string | undefined;
  try {
    claimed = (JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as { sub?: string })
      .sub;
  } catch {
    throw notTheAgent();
  }
  const dispatchId = claimed ? dispatchOfCaptionsAgent(claimed) : null;
  const session = dispatchId
    ? await db().captionSession.findFirst({
        where: { mediaDispatchId: dispatchId },
        include: { room: { include: { tenant: true } } },
      })
    : null;
  if (!session) throw notTheAgent();
  const { room } = session;
  try {
    const verified = await mediaFor(room.tenant).verifyParticipantToken(token);
    if (verified.identity !== claimed || verified.roomName !== room.mediaRoomName) throw notTheAgent();
  } catch {
    throw notTheAgent();
  }
  const late =
    session.stoppedAt && now.getTime() - session.stoppedAt.getTime() > LIVE_TRANSCRIPT_LIMITS.graceAfterStopMs;
  if (room.status === 'ENDED' || late || room.enableE2EE || !room.enableAiFeatures)
    return { accepted: 0, dropped: input.segments.length };
  const kept = await addLiveSegments(room, { language: session.language, segments: input.segments });
  return { accepted: kept.accepted, dropped: kept.dropped };
}
