import type { Participant, Room, Tenant } from '@/lib/generated/prisma/client';
import { db } from '@/lib/db';
import { config } from '@/lib/config';
import { mediaFor } from '@/lib/domain/media';
import type { ParticipantGrants, PublishSource } from '@/lib/media';
import type { Language } from '@/lib/i18n/languages';
import { tokenMetadata } from '@/lib/domain/join-token';

const DEFAULT_TOKEN_TTL_SECONDS = 6 * 60 * 60;

/** What a participant may do in the media room: their permissions within the room's switches. */
export function grantsFor(participant: Participant, room: Room): ParticipantGrants {
  const sources: PublishSource[] = [];
  if (participant.canPublish) {
    sources.push('camera', 'microphone');
    if (participant.canScreenShare && room.enableScreenShare) sources.push('screen_share', 'screen_share_audio');
  }
  return {
    canPublish: participant.canPublish && sources.length > 0,
    canSubscribe: participant.canSubscribe,
    canPublishData: participant.canPublishData && room.enableChat,
    canPublishSources: sources,
  };
}

export async function mintToken({
  tenant,
  room,
  participant,
  ttlSeconds = DEFAULT_TOKEN_TTL_SECONDS,
  lang,
}: {
  tenant: Tenant;
  room: Room;
  participant: Participant;
  ttlSeconds?: number;
  /** The hosted UI's language, carried in the join URL. */
  lang?: Language;
}) {
  const media = mediaFor(tenant);
  const token = await media.mintParticipantToken({
    identity: participant.mediaIdentity,
    name: participant.displayName,
    roomName: await mediaRoomOf(participant, room),
    ttlSeconds,
    metadata: tokenMetadata(participant, room),
    grants: grantsFor(participant, room),
  });
  const joinUrl = `${config().PUBLIC_BASE_URL}/join?token=${encodeURIComponent(token)}&url=${encodeURIComponent(media.url)}${lang ? `&lang=${lang}` : ''}`;
  return { token, mediaUrl: media.url, joinUrl };
}

/** The media room a participant is in: their open breakout's, else the room's. */
export async function mediaRoomOf(participant: Pick<Participant, 'breakoutId'>, room: Room) {
  if (!participant.breakoutId) return room.mediaRoomName;
  const breakout = await db().breakout.findFirst({
    where: { id: participant.breakoutId, roomId: room.id, status: 'OPEN' },
  });
  return breakout?.mediaRoomName ?? room.mediaRoomName;
}
