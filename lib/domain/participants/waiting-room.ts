import type { Participant, Tenant } from '@/lib/generated/prisma/client';
import { db, type Tx } from '@/lib/db';
import { config } from '@/lib/config';
import { constantTimeEqual, randomBase62, sha256Hex } from '@/lib/crypto';
import { invalidState, notFound } from '@/lib/errors';
import type { Language } from '@/lib/i18n/languages';
import { lockRoom } from '@/lib/domain/room-lock';
import { findParticipant, requireModerator } from '@/lib/domain/participants/manage';
import { assertSeatFree } from '@/lib/domain/participants/seats';
import { mintToken } from '@/lib/domain/participants/tokens';
import { participantSelfView, participantView } from '@/lib/domain/participants/views';

/** The credential a parked participant's waiting page polls with; only its hash is stored. */
export function newAdmissionSecret() {
  const secret = `adm_${randomBase62(32)}`;
  return { secret, hash: sha256Hex(secret) };
}

export function admissionUrl({
  roomId,
  participantId,
  secret,
  lang,
}: {
  roomId: string;
  participantId: string;
  secret: string;
  lang?: Language;
}) {
  // The secret travels in the fragment, so it never reaches a server log.
  return `${config().PUBLIC_BASE_URL}/join/waiting?room=${encodeURIComponent(roomId)}&participant=${encodeURIComponent(participantId)}${lang ? `&lang=${lang}` : ''}#${secret}`;
}

/** A moderator's decision on someone in the waiting room. */
interface WaitingDecision {
  tenant: Tenant;
  roomId: string;
  participantId: string;
  actingExternalUserId: string;
}

/** Approve and deny start alike: the room locked, the actor one of its moderators, the participant WAITING. */
async function lockWaitingParticipant(
  { tenant, roomId, participantId, actingExternalUserId }: WaitingDecision,
  { tx }: { tx: Tx },
) {
  const room = await lockRoom({ tx, roomId, tenantId: tenant.id });
  await requireModerator(room.id, actingExternalUserId, { tx });
  const participant = await findParticipant(tenant.id, room.id, participantId, { tx });
  if (participant.connectionState !== 'WAITING')
    throw invalidState(`Participant is ${participant.connectionState}, not WAITING.`);
  return { room, participant };
}

export async function approveParticipant({ now = new Date(), ...decision }: WaitingDecision & { now?: Date }) {
  const participant = await db().$transaction(async (tx) => {
    const { room, participant: p } = await lockWaitingParticipant(decision, { tx });
    await assertSeatFree({ tx, tenant: decision.tenant, room, externalUserId: p.externalUserId, now });
    return tx.participant.update({
      where: { id: p.id },
      data: {
        isApproved: true,
        approvedBy: decision.actingExternalUserId,
        connectionState: 'PENDING',
        tokenIssuedAt: now,
      },
    });
  });
  return participantView(participant);
}

export async function denyParticipant(decision: WaitingDecision) {
  const participant = await db().$transaction(async (tx) => {
    const { participant: p } = await lockWaitingParticipant(decision, { tx });
    // The admission secret stays valid for reading: the waiting page learns it was refused (it grants nothing else).
    return tx.participant.update({
      where: { id: p.id },
      data: { isApproved: false, approvedBy: decision.actingExternalUserId, connectionState: 'DENIED' },
    });
  });
  return participantView(participant);
}

/**
 * The admission poll. Authorised by the tenant key or by the participant's own admission secret
 * (what the hosted waiting page holds). Returns a fresh token once approved.
 */
export async function admissionStatus({
  tenant,
  roomId,
  participantId,
  admissionSecret,
}: {
  /** Null on the waiting page, which holds the admission secret instead. */
  tenant: Tenant | null;
  roomId: string;
  participantId: string;
  admissionSecret: string | null;
}) {
  const participant = await db().participant.findFirst({
    where: { id: participantId, roomId, ...(tenant ? { tenantId: tenant.id } : {}) },
    include: { room: { include: { tenant: true } } },
  });
  if (!participant) throw notFound('Participant');
  if (!tenant) {
    const valid =
      !!admissionSecret &&
      !!participant.admissionSecretHash &&
      constantTimeEqual(sha256Hex(admissionSecret), participant.admissionSecretHash);
    if (!valid) throw notFound('Participant'); // never confirm the id exists to a wrong secret
  }
  const { room, ...rest } = participant;
  // The waiting page (admission secret) never reads the tenant's externalMetadata.
  const view = (tenant ? participantView : participantSelfView)(rest as Participant);
  const status =
    participant.connectionState === 'WAITING'
      ? 'waiting'
      : participant.connectionState === 'DENIED'
        ? 'denied'
        : participant.isApproved
          ? 'approved'
          : 'waiting';
  const roomName = room.name;
  if (status !== 'approved') return { status, roomName, token: null, mediaUrl: null, joinUrl: null, participant: view };
  const credentials = await mintToken({ tenant: room.tenant, room, participant: rest as Participant });
  return { status, roomName, ...credentials, participant: view };
}
