import { db } from '@/lib/db';
import { forbidden, notFound } from '@/lib/errors';
import type { Participant, Tenant } from '@/lib/generated/prisma/client';
import { HAND_ATTRIBUTE } from '@/lib/hand-attribute';
import { MediaLayerError } from '@/lib/media';
import { mediaFor } from '@/lib/domain/media';
import { endRoom } from '@/lib/domain/room-end';
import { muteParticipant } from '@/lib/domain/host-actions';
import { lowerHand } from '@/lib/domain/hands';
import {
  approveParticipant,
  denyParticipant,
  findParticipant,
  MODERATOR_ROLES,
  removeParticipant,
} from '@/lib/domain/participants';
import { latestQuality } from '@/lib/domain/quality-reads';
import { QUALITY_REPORT_INTERVAL_MS, QUALITY_SAMPLE_INTERVAL_MS } from '@/lib/domain/quality-limits';
import type { QualityIssue } from '@/lib/domain/quality-score';

/**
 * The console's live view of a room in progress: who is in it now and what each is doing (from
 * the media layer: microphone, camera, screen share, raised hand), their role and how their call
 * goes now (the latest quality sample, lib/domain/quality.ts), the room's recording, stream and
 * captions, and who waits. The console polls it (app/console/(app)/rooms/[id]/live/state).
 *
 * Its actions are the tenant's own, as with a rooms.write key: removing and ending are the API's
 * functions; muting and lowering a hand are the call's (host-actions.ts, hands.ts) without the
 * moderator check that guards a participant token; admitting and denying keep the API's rule that
 * a host or moderator of the room decides — the console decides in the name of the room's host.
 */
type TrackState = 'on' | 'muted' | 'off';

export interface LivePerson {
  participantId: string;
  displayName: string;
  externalUserId: string;
  role: Participant['role'];
  /** connected: in our records; joining: in the media room, before its webhook reached us. */
  state: 'connected' | 'joining';
  joinedAt: string | null;
  inBreakout: boolean;
  microphone: TrackState;
  camera: TrackState;
  screenShare: boolean;
  handRaisedAt: string | null;
  quality: {
    score: number | null;
    at: string;
    issues: QualityIssue[];
    rttMs: number | null;
    lossPct: number | null;
    sendKbps: number | null;
    recvKbps: number | null;
  } | null;
}

export interface LiveRoomView {
  roomId: string;
  name: string;
  status: 'WAITING' | 'ACTIVE' | 'ENDED';
  isLocked: boolean;
  sessionId: string | null;
  /** False when the media layer did not answer: track states and hands are unknown then. */
  mediaReachable: boolean;
  recording: { id: string; status: string; startedAt: string | null } | null;
  stream: { id: string; status: string; startedAt: string | null } | null;
  captions: { language: string; startedAt: string } | null;
  people: LivePerson[];
  waiting: { participantId: string; displayName: string; since: string }[];
  /** Who the waiting room's decisions are made in the name of; null: nobody can admit (no host or moderator). */
  decidesAs: string | null;
  at: string;
}

const RUNNING = ['STARTING', 'ACTIVE', 'STOPPING'] as const;

async function tenantRoom(tenant: Tenant, roomId: string) {
  const room = await db().room.findFirst({ where: { id: roomId, tenantId: tenant.id } });
  if (!room) throw notFound('Room');
  return room;
}

export async function liveRoom(tenant: Tenant, roomId: string, now = new Date()): Promise<LiveRoomView> {
  const room = await tenantRoom(tenant, roomId);
  const [session, present, waiting, recording, stream, captions, host] = await Promise.all([
    db().roomSession.findFirst({
      where: { roomId: room.id, endedAt: null },
      orderBy: { startedAt: 'desc' },
      select: { id: true },
    }),
    db().participant.findMany({
      where: { roomId: room.id, connectionState: { in: ['CONNECTED', 'PENDING'] } },
      orderBy: { createdAt: 'asc' },
      take: 500,
    }),
    db().participant.findMany({
      where: { roomId: room.id, connectionState: 'WAITING' },
      orderBy: { updatedAt: 'asc' },
      take: 100,
    }),
    db().recording.findFirst({
      where: { roomId: room.id, status: { in: [...RUNNING] } },
      orderBy: { createdAt: 'desc' },
    }),
    db().stream.findFirst({ where: { roomId: room.id, status: { in: [...RUNNING] } }, orderBy: { createdAt: 'desc' } }),
    db().captionSession.findFirst({ where: { roomId: room.id, status: 'ACTIVE' }, orderBy: { startedAt: 'desc' } }),
    roomModerator(room.id),
  ]);

  let media = new Map<string, Awaited<ReturnType<ReturnType<typeof mediaFor>['listParticipants']>>[number]>();
  let mediaReachable = true;
  if (room.status !== 'ENDED') {
    try {
      media = new Map((await mediaFor(tenant).listParticipants(room.mediaRoomName)).map((p) => [p.identity, p]));
    } catch (err) {
      if (!(err instanceof MediaLayerError)) throw err;
      mediaReachable = false; // the room may not exist in the media layer yet (nobody connected)
    }
  }
  // A call reports every 30 s (at once in trouble): its newest sample is "now" until the next report.
  const fresh = QUALITY_REPORT_INTERVAL_MS + QUALITY_SAMPLE_INTERVAL_MS + 5_000;
  const quality = session ? await latestQuality(session.id, fresh, now) : new Map();

  const people: LivePerson[] = [];
  for (const p of present) {
    const inMedia = media.get(p.mediaIdentity);
    // PENDING: handed a token; shown once the media layer has them (they are joining), or when in a breakout.
    if (p.connectionState === 'PENDING' && !inMedia) continue;
    const track = (source: string): TrackState => {
      const t = inMedia?.tracks.find((x) => x.source === source);
      return !t ? 'off' : t.muted ? 'muted' : 'on';
    };
    const q = quality.get(p.id);
    people.push({
      participantId: p.id,
      displayName: p.displayName,
      externalUserId: p.externalUserId,
      role: p.role,
      state: p.connectionState === 'CONNECTED' ? 'connected' : 'joining',
      joinedAt: p.joinedAt?.toISOString() ?? null,
      inBreakout: !!p.breakoutId,
      microphone: track('MICROPHONE'),
      camera: track('CAMERA'),
      screenShare: track('SCREEN_SHARE') === 'on',
      handRaisedAt: inMedia?.attributes[HAND_ATTRIBUTE] || null,
      quality: q
        ? {
            score: q.score,
            at: q.at,
            issues: q.issues,
            rttMs: q.figures.rttMs,
            lossPct:
              Math.max(q.figures.sendLossPct ?? -1, q.figures.recvLossPct ?? -1) >= 0
                ? Math.max(q.figures.sendLossPct ?? 0, q.figures.recvLossPct ?? 0)
                : null,
            sendKbps: q.figures.sendKbps,
            recvKbps: q.figures.recvKbps,
          }
        : null,
    });
  }
  const egress = (e: { id: string; status: string; startedAt: Date | null } | null) =>
    e ? { id: e.id, status: e.status, startedAt: e.startedAt?.toISOString() ?? null } : null;
  return {
    roomId: room.id,
    name: room.name,
    status: room.status,
    isLocked: room.isLocked,
    sessionId: session?.id ?? null,
    mediaReachable,
    recording: egress(recording),
    stream: egress(stream),
    captions: captions ? { language: captions.language, startedAt: captions.startedAt.toISOString() } : null,
    people,
    waiting: waiting.map((w) => ({
      participantId: w.id,
      displayName: w.displayName,
      since: w.updatedAt.toISOString(),
    })),
    decidesAs: host?.displayName ?? null,
    at: now.toISOString(),
  };
}

/** The room's host (else a moderator) in whose name the console admits and denies: one in the call first. */
async function roomModerator(roomId: string) {
  const moderators = await db().participant.findMany({
    where: { roomId, role: { in: MODERATOR_ROLES }, connectionState: { notIn: ['REMOVED', 'DENIED'] } },
    orderBy: { createdAt: 'asc' },
    take: 50,
  });
  const rank = (p: Participant) => (p.role === 'HOST' ? 0 : 2) + (p.connectionState === 'CONNECTED' ? 0 : 1);
  return moderators.sort((a, b) => rank(a) - rank(b))[0] ?? null;
}

// ───────────────────────────── the console's actions ─────────────────────────────

export async function muteFromConsole(
  tenant: Tenant,
  roomId: string,
  participantId: string,
  source: 'microphone' | 'camera',
  by: string,
) {
  const room = await tenantRoom(tenant, roomId);
  const target = await findParticipant(tenant.id, room.id, participantId);
  return muteParticipant({ tenant, room, target, source, by });
}

export async function lowerHandFromConsole(tenant: Tenant, roomId: string, participantId: string) {
  const room = await tenantRoom(tenant, roomId);
  return lowerHand({ tenant, room }, await findParticipant(tenant.id, room.id, participantId));
}

export async function removeFromConsole(tenant: Tenant, roomId: string, participantId: string) {
  return removeParticipant(tenant, roomId, participantId);
}

export async function admitFromConsole(tenant: Tenant, roomId: string, participantId: string, admit: boolean) {
  const room = await tenantRoom(tenant, roomId);
  const host = await roomModerator(room.id);
  if (!host)
    throw forbidden(
      'Nobody in this room is a host or moderator: admission is theirs to decide (as in the API, actingExternalUserId).',
    );
  const decision = { tenant, roomId: room.id, participantId, actingExternalUserId: host.externalUserId };
  return admit ? approveParticipant(decision) : denyParticipant(decision);
}

export async function endFromConsole(tenant: Tenant, roomId: string) {
  return endRoom(tenant, roomId);
}
