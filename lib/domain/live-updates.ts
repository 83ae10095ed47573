import type { Room, Tenant } from '@/lib/generated/prisma/client';
import { mediaFor } from '@/lib/domain/media';
import { MediaLayerError } from '@/lib/media';
import { log } from '@/lib/log';

/**
 * Live updates to everyone in a room over the media layer's data channel (reliable). The
 * database is the truth and clients re-read it; a message is only a nudge, so a media failure
 * (or a room nobody has joined yet) is logged, never an API error.
 * Topics: convene.polls ({type: 'poll.updated', poll}), convene.questions ({type: 'question.updated', question}),
 * convene.chat ({type: 'chat.message', message}; a direct message goes to its two participants only).
 */
export async function broadcast(
  tenant: Tenant,
  room: Room,
  topic: 'convene.polls' | 'convene.questions' | 'convene.chat',
  payload: Record<string, unknown>,
  destinationIdentities?: string[],
) {
  if (destinationIdentities && destinationIdentities.length === 0) return;
  try {
    await mediaFor(tenant).sendData(room.mediaRoomName, payload, { topic, ...(destinationIdentities ? { destinationIdentities } : {}) });
  } catch (err) {
    if (!(err instanceof MediaLayerError && err.isNotFound)) log.warn({ err: (err as Error).message, roomId: room.id, topic }, 'live update not sent');
  }
}
