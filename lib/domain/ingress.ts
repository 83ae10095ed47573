import type { IngressEndpoint, Tenant } from '@/lib/generated/prisma/client';
import type { z } from 'zod';
import { db, type Tx } from '@/lib/db';
import { ApiError, invalidState, notFound } from '@/lib/errors';
import { log } from '@/lib/log';
import { resolveLimits } from '@/lib/domain/plans';
import { mediaFor } from '@/lib/domain/media';
import { findRoom } from '@/lib/domain/rooms';
import type { ingressCreateInput, IngressResponse } from '@/lib/domain/ingress.schemas';

/**
 * Ingress endpoints: an RTMP or WHIP input that publishes into a room as one participant.
 * Statuses: CREATED → ACTIVE (ingress.started: something is publishing) → ENDED (ingress.ended;
 * it can start again) → DELETED. The stream key is the tenant's own credential for pushing,
 * so it is returned.
 */
function ingressView(i: IngressEndpoint): IngressResponse {
  return {
    id: i.id,
    roomId: i.roomId,
    mediaIngressId: i.mediaIngressId,
    name: i.name,
    inputType: i.inputType,
    enableTranscoding: i.enableTranscoding,
    participantIdentity: i.participantIdentity,
    participantName: i.participantName,
    ingressUrl: i.ingressUrl,
    streamKey: i.streamKey,
    status: i.status,
    createdByExternalId: i.createdByExternalId,
    createdAt: i.createdAt.toISOString(),
    updatedAt: i.updatedAt.toISOString(),
  };
}

/**
 * Created within the plan's ingressEndpoints (ingresses not deleted): the count, the media layer's
 * ingress and the row in one transaction under the tenant's ingress lock, so concurrent creations
 * cannot pass the limit; an ingress whose row could not be written is deleted again.
 */
export async function createIngress(tenant: Tenant, input: z.infer<typeof ingressCreateInput>) {
  const room = await findRoom(tenant.id, input.roomId);
  if (room.status === 'ENDED') throw invalidState('The room has ended.');
  const media = mediaFor(tenant);
  let created: string | null = null;
  try {
    const row = await db().$transaction(async (tx) => {
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`convene:ingress:${tenant.id}`}, 0))`;
      const limit = resolveLimits(tenant.plan, tenant.entitlementOverrides).ingressEndpoints;
      const count = await tx.ingressEndpoint.count({ where: { tenantId: tenant.id, status: { not: 'DELETED' } } });
      if (count >= limit)
        throw new ApiError(
          'PLAN_LIMIT_REACHED',
          `Your plan allows ${limit} ingress endpoints (ingressEndpoints); delete one first.`,
        );
      const ingress = await media.createIngress({
        inputType: input.inputType,
        name: input.name,
        roomName: room.mediaRoomName,
        participantIdentity: input.participantIdentity,
        participantName: input.participantName,
        enableTranscoding: input.enableTranscoding,
      });
      created = ingress.ingressId;
      return tx.ingressEndpoint.create({
        data: {
          tenantId: tenant.id,
          roomId: room.id,
          mediaIngressId: ingress.ingressId,
          name: input.name,
          inputType: input.inputType,
          enableTranscoding: input.enableTranscoding,
          participantIdentity: input.participantIdentity,
          participantName: input.participantName,
          ingressUrl: ingress.url,
          streamKey: ingress.streamKey,
          createdByExternalId: input.createdByExternalId,
        },
      });
    });
    return ingressView(row);
  } catch (err) {
    if (created)
      await media
        .deleteIngress(created)
        .catch((e: Error) =>
          log.error({ tenantId: tenant.id, ingressId: created, err: e.message }, 'ingress without its row not deleted'),
        );
    throw err;
  }
}

async function findIngress(tenantId: string, id: string) {
  const i = await db().ingressEndpoint.findFirst({ where: { id, tenantId, status: { not: 'DELETED' } } });
  if (!i) throw notFound('Ingress');
  return i;
}

export async function getIngress(tenant: Tenant, id: string) {
  return ingressView(await findIngress(tenant.id, id));
}

/** Deleted in the media layer first; the row stays as DELETED (GET and DELETE then answer 404). */
export async function deleteIngress(tenant: Tenant, id: string) {
  const i = await findIngress(tenant.id, id);
  await mediaFor(tenant).deleteIngress(i.mediaIngressId);
  return ingressView(await db().ingressEndpoint.update({ where: { id: i.id }, data: { status: 'DELETED' } }));
}

/** ingress_started (→ ACTIVE) / ingress_ended (→ ENDED), called from the media webhook handler. */
export async function onIngressState(mediaIngressId: string, status: 'ACTIVE' | 'ENDED', { tx }: { tx: Tx }) {
  const i = await tx.ingressEndpoint.findUnique({ where: { mediaIngressId } });
  if (!i || i.status === 'DELETED') return;
  await tx.ingressEndpoint.update({ where: { id: i.id }, data: { status } });
}
