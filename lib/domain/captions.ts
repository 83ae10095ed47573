import type { CaptionSession, Tenant } from '@/lib/generated/prisma/client';
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

/**
 * Live captions: a captioning agent dispatched into the room through the media layer's agent
 * dispatch (LIVEKIT_CAPTIONS_AGENT); captions reach participants as the media layer's
 * transcription stream. Allowed only with enableAiFeatures and never with E2EE. Starting while
 * captions run returns the running session; stopping when none runs is 409.
 */
function captionView(roomId: string, session: CaptionSession | null): CaptionStatusResponse {
  return {
    roomId,
    active: session?.status === 'ACTIVE',
    sessionId: session?.id ?? null,
    language: session?.language ?? null,
    startedAt: iso(session?.startedAt),
    stoppedAt: iso(session?.stoppedAt),
    startedByExternalId: session?.startedByExternalId ?? null,
  };
}

export async function startCaptions(tenant: Tenant, input: z.infer<typeof captionsInput>) {
  const room = await findRoom(tenant.id, input.roomId);
  assertBillableMediaAllowed(tenant, 'captions', await minutesThisMonth(tenant.id, 'caption_minutes'));
  if (room.enableE2EE)
    throw new ApiError('FEATURE_DISABLED', 'Captions are never available in an end-to-end encrypted room.');
  if (!room.enableAiFeatures)
    throw new ApiError('FEATURE_DISABLED', 'Captions need the room to opt in to AI features (enableAiFeatures).');
  if (room.status === 'ENDED') throw invalidState('The room has ended.');
  const running = await db().captionSession.findFirst({ where: { roomId: room.id, status: 'ACTIVE' } });
  if (running) return captionView(room.id, running);
  const dispatch = await mediaFor(tenant).createAgentDispatch(
    room.mediaRoomName,
    config().LIVEKIT_CAPTIONS_AGENT,
    JSON.stringify({ language: input.language, roomId: room.id }),
  );
  const session = await db().captionSession.create({
    data: {
      tenantId: tenant.id,
      roomId: room.id,
      language: input.language,
      mediaDispatchId: dispatch.dispatchId,
      startedByExternalId: input.startedByExternalId ?? null,
    },
  });
  return captionView(room.id, session);
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
  return captionView(room.id, stopped);
}

function countCaptionMinutes(session: CaptionSession, now: Date) {
  addUsage({
    tenantId: session.tenantId,
    metric: 'caption_minutes',
    amount: Math.max(1, Math.ceil((now.getTime() - session.startedAt.getTime()) / 60_000)),
    at: now,
  });
}

/** A room that ends stops its captions: the session reads STOPPED and its minutes are counted. */
export async function stopCaptionsOfEndedRoom(roomId: string, now: Date, { tx }: { tx: Tx }) {
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
  return captionView(room.id, latest);
}
