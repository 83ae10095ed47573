import type { Stream, Tenant } from '@/lib/generated/prisma/client';
import type { z } from 'zod';
import { db, type Tx } from '@/lib/db';
import { ApiError, invalidState, notFound } from '@/lib/errors';
import { mediaFor } from '@/lib/domain/media';
import { findRoom } from '@/lib/domain/rooms';
import { assertBillableMediaAllowed } from '@/lib/domain/tenants';
import { minutesThisMonth, type EgressEvent } from '@/lib/domain/recordings';
import { addUsage } from '@/lib/domain/usage';
import type { streamStartInput, StreamResponse } from '@/lib/domain/streams.schemas';
import { iso, secondsBetween } from '@/lib/domain/time';

/**
 * Live streaming (RTMP out): a room-composite egress to RTMP destinations. The stream keys are
 * sent to the media layer and never stored or returned: destinations are kept masked
 * (rtmp://host/app/••••1a2b). Statuses as recordings: STARTING → ACTIVE → STOPPING → COMPLETED | FAILED.
 */
function maskStreamUrl(url: string): string {
  const u = new URL(url);
  const parts = u.pathname.split('/');
  const key = parts.pop() ?? '';
  return `${u.protocol}//${u.host}${parts.join('/')}/••••${key.slice(-4)}`;
}

function streamView(s: Stream): StreamResponse {
  return {
    id: s.id,
    roomId: s.roomId,
    status: s.status,
    destinations: s.destinations as string[],
    createdByExternalId: s.createdByExternalId,
    startedAt: iso(s.startedAt),
    endedAt: iso(s.endedAt),
    duration: s.duration,
    error: s.error,
    createdAt: s.createdAt.toISOString(),
  };
}

export async function startStream(tenant: Tenant, input: z.infer<typeof streamStartInput>) {
  const room = await findRoom(tenant.id, input.roomId);
  assertBillableMediaAllowed(tenant, 'streaming', await minutesThisMonth(tenant.id, 'streaming_minutes'));
  if (room.enableE2EE)
    throw new ApiError(
      'FEATURE_DISABLED',
      'End-to-end encrypted rooms cannot be streamed: the media layer cannot decrypt them.',
    );
  if (room.status === 'ENDED') throw invalidState('The room has ended.');
  const egress = await mediaFor(tenant).startRoomCompositeEgress(
    room.mediaRoomName,
    { streamUrls: input.urls },
    { layout: input.layout },
  );
  const stream = await db().stream.create({
    data: {
      tenantId: tenant.id,
      roomId: room.id,
      mediaEgressId: egress.egressId,
      status: 'STARTING',
      destinations: input.urls.map(maskStreamUrl),
      createdByExternalId: input.createdByExternalId ?? null,
    },
  });
  return streamView(stream);
}

async function findStream(tenantId: string, id: string) {
  const s = await db().stream.findFirst({ where: { id, tenantId } });
  if (!s) throw notFound('Stream');
  return s;
}

export async function getStream(tenant: Tenant, id: string) {
  return streamView(await findStream(tenant.id, id));
}

export async function stopStream(tenant: Tenant, id: string) {
  const s = await findStream(tenant.id, id);
  if (s.status !== 'STARTING' && s.status !== 'ACTIVE') throw invalidState(`The stream is ${s.status}.`);
  await mediaFor(tenant).stopEgress(s.mediaEgressId);
  return streamView(await db().stream.update({ where: { id: s.id }, data: { status: 'STOPPING' } }));
}

/**
 * A stream's egress started or ended: the stream's state follows. Returns the stream when its state
 * changed (null for an egress that is no stream, or a late or repeated webhook: a stream starts once
 * and ends once, whatever order the media layer's webhooks arrive in).
 */
export async function onStreamEgress(
  { kind, egressId, status: egressStatus, error, at }: EgressEvent,
  { tx }: { tx: Tx },
): Promise<Stream | null> {
  const s = await tx.stream.findUnique({ where: { mediaEgressId: egressId } });
  if (!s || s.status === 'COMPLETED' || s.status === 'FAILED') return null;
  if (kind === 'started') {
    if (s.status !== 'STARTING') return null;
    return tx.stream.update({ where: { id: s.id }, data: { status: 'ACTIVE', startedAt: s.startedAt ?? at } });
  }
  const duration = secondsBetween(s.startedAt, at);
  const ok = egressStatus === 'EGRESS_COMPLETE';
  const ended = await tx.stream.update({
    where: { id: s.id },
    data: { status: ok ? 'COMPLETED' : 'FAILED', endedAt: at, duration, error: ok ? null : error || egressStatus },
  });
  if (duration) addUsage({ tenantId: s.tenantId, metric: 'streaming_minutes', amount: Math.ceil(duration / 60), at });
  return ended;
}
