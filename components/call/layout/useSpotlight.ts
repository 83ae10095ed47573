'use client';

import type { Room } from 'livekit-client';
import { useRoomValue } from '@/components/call/useRoomValue';
import { factsFromMetadata } from '@/lib/domain/join-token';
import { readSpotlight, SPOTLIGHT_ATTRIBUTE } from '@/lib/spotlight-attribute';
import { MODERATOR_ROLES } from '@/components/call/layout/stage-layout';

/**
 * Whom the moderators spotlighted for everyone: the latest well-formed SPOTLIGHT_ATTRIBUTE among
 * participants whose (server-written) metadata says host or moderator, if that person is in the
 * call. Anything else is ignored: attributes and metadata come from other people's connections.
 */
function spotlightIn(room: Room): string | null {
  const everyone = [room.localParticipant, ...room.remoteParticipants.values()];
  let latest: { identity: string | null; at: string } | null = null;
  for (const p of everyone) {
    const role = factsFromMetadata(p.metadata).role;
    if (!role || !MODERATOR_ROLES.includes(role)) continue;
    const value = readSpotlight(p.attributes[SPOTLIGHT_ATTRIBUTE]);
    if (value && (!latest || value.at > latest.at)) latest = value;
  }
  const identity = latest?.identity ?? null;
  return identity && everyone.some((p) => p.identity === identity) ? identity : null;
}

/** The spotlighted participant's identity, or null; follows attribute, metadata and roster changes. */
export function useSpotlight(): string | null {
  return useRoomValue(spotlightIn);
}
