import { db, Prisma, type Tx } from '@/lib/db';
import { config } from '@/lib/config';
import { ApiError } from '@/lib/errors';
import { mediaFor } from '@/lib/domain/media';
import { isMediaNotFound } from '@/lib/media';
import { isTurnedAway } from '@/lib/domain/participants';
import { finishRoom } from '@/lib/domain/room-end';
import { emitEvent, outboxWritten } from '@/lib/events/outbox';
import { beginRecording, onRecordingEgress, type EgressEvent } from '@/lib/domain/recordings';
import { waitForEgressStarts } from '@/lib/domain/recordings-limits';
import { onStreamEgress } from '@/lib/domain/streams';
import { onIngressState } from '@/lib/domain/ingress';
import { onConnection, onRoomStarted, connectedSeconds } from '@/lib/domain/sessions';
import { enqueueTranscript } from '@/lib/runtime/jobs';
import { log } from '@/lib/log';
import type { MediaLayer, MediaWebhookEvent } from '@/lib/media';
import type { Room } from '@/lib/generated/prisma/client';
import { isMediaJwtAlgorithm } from '@/lib/media/jwt';

/**
 * Media-layer webhooks in: verified on the raw body, applied to our rooms and participants, and
 * relayed to the owning tenant as our own events. Track-level events are acknowledged and
 * ignored. Each media event id is processed once (duplicates from the media layer are no-ops).
 */
const HANDLED = new Set([
  'room_started',
  'room_finished',
  'participant_joined',
  'participant_left',
  'egress_started',
  'egress_ended',
  'ingress_started',
  'ingress_ended',
]);

/** The signing key is the JWT's issuer: the platform's media project, or a tenant's own. */
async function verifierFor(authorization: string | null): Promise<MediaLayer> {
  const payload = authorization?.split('.')[1];
  let issuer: string | undefined;
  try {
    issuer = payload
      ? (JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { iss?: string }).iss
      : undefined;
  } catch {
    issuer = undefined;
  }
  if (issuer && issuer !== config().LIVEKIT_API_KEY) {
    const tenant = await db().tenant.findFirst({ where: { mediaApiKey: issuer } });
    if (tenant) return mediaFor(tenant);
  }
  return mediaFor({ mediaUrl: null, mediaApiKey: null, mediaApiSecretEncrypted: null });
}

export async function receiveMediaWebhook(rawBody: string, authorization: string | null) {
  let event: MediaWebhookEvent;
  try {
    if (!authorization || !isMediaJwtAlgorithm(authorization)) throw new Error('not HS256');
    event = await (await verifierFor(authorization)).receiveWebhook(rawBody, authorization);
  } catch {
    throw new ApiError('UNAUTHENTICATED', 'Media webhook signature did not verify.');
  }
  if (!HANDLED.has(event.event)) return { received: true, handled: false };
  const followUps: FollowUp[] = [];
  const handled = await db().$transaction(async (tx) => {
    try {
      await tx.mediaWebhookReceipt.create({
        data: { id: event.id || `${event.event}:${event.createdAt?.getTime()}`, event: event.event },
      });
    } catch (err) {
      if (err instanceof Prisma.PrismaClientKnownRequestError && err.code === 'P2002') return false; // duplicate delivery
      throw err;
    }
    await apply(event, followUps, { tx });
    return true;
  });
  for (const followUp of followUps)
    await followUp().catch((err) =>
      log.warn({ err: (err as Error).message }, 'follow-up failed; the lifecycle sweep retries it'),
    );
  if (handled) outboxWritten();
  if (handled && event.event === 'room_started' && event.room) await autoRecord(event.room.name);
  return { received: true, handled };
}

/** Work to start after the transaction commits (queue jobs for rows it created). */
type FollowUp = () => Promise<void>;

async function apply(event: MediaWebhookEvent, followUps: FollowUp[], { tx }: { tx: Tx }) {
  const at = event.createdAt ?? new Date();
  const roomName = event.room?.name ?? event.egress?.roomName ?? event.ingress?.roomName;
  if (!roomName) return;
  let room = await tx.room.findUnique({ where: { mediaRoomName: roomName } });
  // A breakout's media room: its people keep their seat (their participant row) in the main room.
  let inBreakout: string | null = null;
  if (!room && (event.event === 'participant_joined' || event.event === 'participant_left')) {
    const breakout = await tx.breakout.findUnique({ where: { mediaRoomName: roomName } });
    if (breakout) {
      room = await tx.room.findUnique({ where: { id: breakout.roomId } });
      inBreakout = breakout.id;
    }
  }
  if (!room) return; // a media room we do not know: nothing to relay
  await HANDLERS[event.event]?.({ event, room, roomName, inBreakout, at, followUps, tx });
}

/** What a handler gets: the event, the Convene room it is about, and the transaction. */
interface Applying {
  event: MediaWebhookEvent;
  room: Room;
  roomName: string;
  /** The breakout whose media room the event came from, if any. */
  inBreakout: string | null;
  at: Date;
  followUps: FollowUp[];
  tx: Tx;
}

/** One handler per media-layer event (LiveKit's webhook names); an event not listed changes nothing. */
const HANDLERS: Record<string, ((a: Applying) => Promise<void>) | undefined> = {
  room_started: roomStarted,
  room_finished: async ({ room, at, tx }) => {
    await finishRoom(room.id, at, { tx });
  },
  participant_joined: participantConnection,
  participant_left: participantConnection,
  egress_started: egressChanged,
  egress_ended: egressChanged,
  ingress_started: ingressChanged,
  ingress_ended: ingressChanged,
};

async function roomStarted({ event, room, at, tx }: Applying) {
  if (room.status === 'ENDED') return;
  await onRoomStarted(room, at, { tx });
  const started = await tx.room.update({
    where: { id: room.id },
    data: { status: 'ACTIVE', startedAt: room.startedAt ?? at, mediaSid: event.room?.sid ?? room.mediaSid },
  });
  await emitEvent({
    tx,
    tenantId: room.tenantId,
    name: 'room.started',
    data: {
      roomId: room.id,
      mediaRoomName: room.mediaRoomName,
      status: 'ACTIVE',
      startedAt: started.startedAt!.toISOString(),
    },
  });
}

async function participantConnection({ event, room, roomName, inBreakout, at, followUps, tx }: Applying) {
  const identity = event.participant?.identity;
  const participant = identity ? await tx.participant.findUnique({ where: { mediaIdentity: identity } }) : null;
  if (!participant || participant.roomId !== room.id) return;
  const joined = event.event === 'participant_joined';
  // Moved between the main room and a breakout (the row names the room they were moved to
  // before the media layer moves them): the old room's left is not leaving the meeting.
  if (!joined && participant.breakoutId !== inBreakout) return;
  if (isTurnedAway(participant)) {
    // The media layer does not revoke a removed participant's token (LiveKit neither): one who
    // connects again is removed again, and never counted as present. Their left is applied only
    // while a connection we counted is still open (the one the removal ended).
    if (joined) {
      followUps.push(() => removeFromMediaLayer(room.tenantId, roomName, identity!));
      return;
    }
    const counted = await tx.sessionConnection.count({
      where: { participantId: participant.id, joinedAt: { not: null }, leftAt: null },
    });
    if (counted === 0) return;
  }
  const joinedAt = event.participant?.joinedAt ?? at;
  // Sessions and attendance first: they say whether the participant is connected once this
  // event is applied (a left that arrived before its join, or the old connection of a
  // reconnect leaving after the new one joined, must not flip the state).
  const { connected, continued } = await onConnection({
    tx,
    room,
    participant,
    event: {
      kind: joined ? 'joined' : 'left',
      sid: event.participant?.sid || null,
      joinedAt: event.participant?.joinedAt ?? null,
      at,
    },
  });
  const duration = await connectedSeconds(participant.id, at, { tx });
  const updated = await tx.participant.update({
    where: { id: participant.id },
    data: connected
      ? joined
        ? {
            connectionState: 'CONNECTED',
            joinedAt: continued ? participant.joinedAt : joinedAt,
            leftAt: null,
            mediaSid: event.participant?.sid ?? participant.mediaSid,
            duration,
            breakoutId: inBreakout,
          }
        : { duration } // another connection of theirs is still open (a reconnect): state unchanged
      : joined
        ? { duration }
        : {
            connectionState: participant.connectionState === 'REMOVED' ? 'REMOVED' : 'DISCONNECTED',
            leftAt: at,
            duration,
          },
  });
  const active = await tx.participant.count({ where: { roomId: room.id, connectionState: 'CONNECTED' } });
  await tx.room.update({
    where: { id: room.id },
    data: {
      activeParticipants: active,
      ...(joined && room.status === 'WAITING' ? { status: 'ACTIVE', startedAt: room.startedAt ?? at } : {}),
    },
  });
  const who = {
    roomId: room.id,
    participantId: updated.id,
    externalUserId: updated.externalUserId,
    role: updated.role,
  };
  if (joined) {
    // The same connection arriving in another room (a move) is no new arrival for the tenant.
    if (!continued)
      await emitEvent({
        tx,
        tenantId: room.tenantId,
        name: 'participant.joined',
        data: { ...who, joinedAt: joinedAt.toISOString() },
      });
  } else
    await emitEvent({
      tx,
      tenantId: room.tenantId,
      name: 'participant.left',
      data: { ...who, leftAt: at.toISOString(), duration: updated.duration ?? 0 },
    });
}

async function egressChanged({ event, room, at, followUps, tx }: Applying) {
  const egress: EgressEvent = {
    kind: event.event === 'egress_ended' ? 'ended' : 'started',
    egressId: event.egress?.egressId ?? '',
    status: event.egress?.status ?? '',
    error: event.egress?.error ?? '',
    fileStartedAt: event.egress?.fileStartedAt ?? null,
    at,
  };
  await waitForEgressStarts(room.tenantId, { tx }); // a start in progress writes its row first
  const recording = await onRecordingEgress(egress, { tx });
  if (recording?.transcriptId) followUps.push(() => enqueueTranscript(recording.transcriptId!));
  const stream = recording ? null : await onStreamEgress(egress, { tx });
  if (stream)
    await emitEvent({
      tx,
      tenantId: room.tenantId,
      name: egress.kind === 'started' ? 'stream.started' : 'stream.ended',
      data: { streamId: stream.id, roomId: room.id, status: stream.status, error: stream.error },
    });
  await emitEvent({
    tx,
    tenantId: room.tenantId,
    name: event.event === 'egress_started' ? 'egress.started' : 'egress.ended',
    data: { roomId: room.id, egressId: event.egress?.egressId ?? null, status: event.egress?.status ?? null },
  });
}

async function ingressChanged({ event, room, tx }: Applying) {
  if (event.ingress?.ingressId)
    await onIngressState(event.ingress.ingressId, event.event === 'ingress_started' ? 'ACTIVE' : 'ENDED', { tx });
  await emitEvent({
    tx,
    tenantId: room.tenantId,
    name: event.event === 'ingress_started' ? 'ingress.started' : 'ingress.ended',
    data: { roomId: room.id, ingressId: event.ingress?.ingressId ?? null, status: event.ingress?.status ?? null },
  });
}

/** Disconnects a turned-away participant who connected again; one already gone is fine. */
async function removeFromMediaLayer(tenantId: string, mediaRoomName: string, identity: string) {
  const tenant = await db().tenant.findUniqueOrThrow({ where: { id: tenantId } });
  try {
    await mediaFor(tenant).removeParticipant(mediaRoomName, identity);
  } catch (err) {
    if (!isMediaNotFound(err)) throw err;
  }
  log.info({ tenantId, mediaRoomName, identity }, 'a removed or refused participant connected again: removed');
}

/** autoRecord: the room's recording starts when the media room starts, if the room may be recorded. */
async function autoRecord(mediaRoomName: string) {
  const room = await db().room.findUnique({ where: { mediaRoomName }, include: { tenant: true } });
  if (!room?.autoRecord) return;
  try {
    // Refused (CONFLICT) when a recording of the room already runs; the plan's limits hold as for the API's start.
    await beginRecording(room.tenant, room, { createdByExternalId: 'autoRecord' });
  } catch (err) {
    log.warn({ roomId: room.id, err: (err as Error).message }, 'autoRecord did not start');
  }
}
