import type { Room, Tenant } from '@/lib/generated/prisma/client';
import { mediaFor } from '@/lib/domain/media';
import { isMediaNotFound } from '@/lib/media';
import { log } from '@/lib/log';
import type { LiveTopic } from '@/lib/live-topics';
import { LIVE_MESSAGES, type LiveMessageInput } from '@/lib/live-messages';

/**
 * Live updates to everyone in a room over the media layer's data channel (reliable), sent through
 * its server API so that they carry no participant: the call UI believes these topics only then
 * (lib/live-messages.ts). The database is the truth and clients re-read it; a message is only a
 * nudge, so a media failure (or a room nobody has joined yet) is logged, never an API error.
 * A chat direct message goes to its two participants only.
 */
export async function broadcast<T extends LiveTopic>({
  tenant,
  room,
  topic,
  payload,
  destinationIdentities,
}: {
  tenant: Tenant;
  room: Room;
  topic: T;
  payload: LiveMessageInput<T>;
  /** Only these media identities (none: nothing is sent); everyone in the room when absent. */
  destinationIdentities?: string[];
}) {
  if (destinationIdentities && destinationIdentities.length === 0) return;
  // The reader's own schema: a message it would drop is a bug here, not something to send.
  const message = LIVE_MESSAGES[topic].schema.safeParse(payload);
  if (!message.success) {
    log.error(
      { roomId: room.id, topic, issues: message.error.issues.slice(0, 5) },
      'live update does not fit its schema',
    );
    return;
  }
  try {
    await mediaFor(tenant).sendData(room.mediaRoomName, message.data as Record<string, unknown>, {
      topic,
      ...(destinationIdentities ? { destinationIdentities } : {}),
    });
  } catch (err) {
    if (!isMediaNotFound(err))
      log.warn({ err: (err as Error).message, roomId: room.id, topic }, 'live update not sent');
  }
}
