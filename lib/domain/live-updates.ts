import type { Room, Tenant } from '@/lib/generated/prisma/client';
import { mediaFor } from '@/lib/domain/media';
import { isMediaNotFound } from '@/lib/media';
import { log } from '@/lib/log';
import type { LiveTopic } from '@/lib/live-topics';

/**
 * Live updates to everyone in a room over the media layer's data channel (reliable). The
 * database is the truth and clients re-read it; a message is only a nudge, so a media failure
 * (or a room nobody has joined yet) is logged, never an API error.
 * Topics and their payloads: lib/live-topics.ts (a chat direct message goes to its two participants only).
 */
export async function broadcast({
  tenant,
  room,
  topic,
  payload,
  destinationIdentities,
}: {
  tenant: Tenant;
  room: Room;
  topic: LiveTopic;
  payload: Record<string, unknown>;
  /** Only these media identities (none: nothing is sent); everyone in the room when absent. */
  destinationIdentities?: string[];
}) {
  if (destinationIdentities && destinationIdentities.length === 0) return;
  try {
    await mediaFor(tenant).sendData(room.mediaRoomName, payload, {
      topic,
      ...(destinationIdentities ? { destinationIdentities } : {}),
    });
  } catch (err) {
    if (!isMediaNotFound(err))
      log.warn({ err: (err as Error).message, roomId: room.id, topic }, 'live update not sent');
  }
}
