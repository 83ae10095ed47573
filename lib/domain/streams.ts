import type { Stream, Tenant } from '@/lib/generated/prisma/client';
import type { z } from 'zod';
import { db, type Tx } from '@/lib/db';
import { config } from '@/lib/config';
import { ApiError, invalidState, notFound, validationFailed } from '@/lib/errors';
import { assertPublicHost, UnsafeUrlError } from '@/lib/net/ssrf';
import { mediaFor } from '@/lib/domain/media';
import { findRoom } from '@/lib/domain/rooms';
import { assertBillableMediaAllowed } from '@/lib/domain/tenants';
import type { EgressEvent } from '@/lib/domain/recordings';
import { startEgressWithinLimits } from '@/lib/domain/recordings-limits';
import { addUsage } from '@/lib/domain/usage';
import type { streamStartInput, StreamResponse } from '@/lib/domain/streams.schemas';
import { iso, secondsBetween } from '@/lib/domain/time';

/**
 * Live streaming (RTMP out): a room-composite egress to RTMP destinations. The stream keys are
 * sent to the media layer and never stored or returned: destinations are kept masked
 * (rtmp://host/app/••••1a2b). Statuses as recordings: STARTING → ACTIVE → STOPPING → COMPLETED | FAILED.
 */

/**
 * Every destination is checked whole before anything starts: a URL, rtmp:// or rtmps://, a host, a
 * port in 1–65535, no credentials, a stream key; and its host public by the webhook URLs' classifier
 * (no loopback, private, link-local or metadata address, nor a name resolving to one), unless
 * WEBHOOK_ALLOW_INSECURE_URLS. Returns the destination masked; refusals are VALIDATION_FAILED.
 */
async function maskedDestination(raw: string, field: string): Promise<string> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw validationFailed(field, 'is not a valid URL (a host, and a port from 1 to 65535)');
  }
  if (url.protocol !== 'rtmp:' && url.protocol !== 'rtmps:')
    throw validationFailed(field, 'must be an rtmp:// or rtmps:// URL');
  if (!url.hostname) throw validationFailed(field, 'must name a host');
  if (url.port === '0') throw validationFailed(field, 'must have a port from 1 to 65535');
  if (url.username || url.password)
    throw validationFailed(field, 'must not contain credentials (the stream key goes in the path)');
  const parts = url.pathname.split('/');
  const key = parts.pop() ?? '';
  if (!key) throw validationFailed(field, 'must end with a stream key');
  if (!config().WEBHOOK_ALLOW_INSECURE_URLS) {
    try {
      await assertPublicHost(url.hostname);
    } catch (err) {
      if (err instanceof UnsafeUrlError) throw validationFailed(field, err.message);
      throw err;
    }
  }
  // A short key is shown not at all: its last four characters would be most of it.
  return `${url.protocol}//${url.host}${parts.join('/')}/••••${key.length >= 12 ? key.slice(-4) : ''}`;
}

/**
 * What a failed stream reports. The media layer's reason for a destination it could not use tells
 * a closed port ("Connection refused") from one that answered ("End of file"): a port scanner. So
 * a stream's error passes through only when it is one of the reasons that concern no destination
 * (the encoder, nothing published, no ffmpeg, a request the media layer does not support); every
 * other one reads the same.
 */
export const UNREACHABLE_DESTINATION = 'A stream destination could not be reached or did not accept the stream.';
const NOT_ABOUT_A_DESTINATION =
  /^(the encoder failed|nothing was published|recording, streaming and RTMP ingress need ffmpeg|the request has no|audio_only and video_only|EGRESS_[A-Z_]+$)|not supported by the development media server/i;

function reportedError(error: string) {
  return NOT_ABOUT_A_DESTINATION.test(error) ? error : UNREACHABLE_DESTINATION;
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
  const destinations = await Promise.all(input.urls.map((url, i) => maskedDestination(url, `urls.${i}`)));
  const room = await findRoom(tenant.id, input.roomId);
  if (tenant.isTestMode) assertBillableMediaAllowed(tenant, 'streaming'); // refused before anything else
  if (room.enableE2EE)
    throw new ApiError(
      'FEATURE_DISABLED',
      'End-to-end encrypted rooms cannot be streamed: the media layer cannot decrypt them.',
    );
  if (room.status === 'ENDED') throw invalidState('The room has ended.');
  const stream = await startEgressWithinLimits({
    tenant,
    kind: 'streaming',
    start: () =>
      mediaFor(tenant).startRoomCompositeEgress(
        room.mediaRoomName,
        { streamUrls: input.urls },
        { layout: input.layout },
      ),
    save: (mediaEgressId, tx) =>
      tx.stream.create({
        data: {
          tenantId: tenant.id,
          roomId: room.id,
          mediaEgressId,
          status: 'STARTING',
          destinations,
          createdByExternalId: input.createdByExternalId ?? null,
        },
      }),
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
  // Locked first: a started and an ended of one egress applied at once must not undo each other.
  await tx.$executeRaw`SELECT 1 FROM "Stream" WHERE "mediaEgressId" = ${egressId} FOR UPDATE`;
  const s = await tx.stream.findUnique({ where: { mediaEgressId: egressId } });
  if (!s || s.status === 'COMPLETED' || s.status === 'FAILED') return null;
  if (kind === 'started') {
    if (s.status !== 'STARTING') {
      // Stopped before its start was reported: the start time still counts for billing.
      if (!s.startedAt) await tx.stream.update({ where: { id: s.id }, data: { startedAt: at } });
      return null;
    }
    return tx.stream.update({ where: { id: s.id }, data: { status: 'ACTIVE', startedAt: s.startedAt ?? at } });
  }
  const duration = secondsBetween(s.startedAt, at);
  const ok = egressStatus === 'EGRESS_COMPLETE';
  // error keeps why Convene stopped it, if it did (the month's minutes used up).
  const failure = ok ? null : reportedError(error || egressStatus);
  const ended = await tx.stream.update({
    where: { id: s.id },
    data: {
      status: ok ? 'COMPLETED' : 'FAILED',
      endedAt: at,
      duration,
      error: s.error && failure ? `${s.error} ${failure}` : (s.error ?? failure),
    },
  });
  if (duration) addUsage({ tenantId: s.tenantId, metric: 'streaming_minutes', amount: Math.ceil(duration / 60), at });
  return ended;
}
