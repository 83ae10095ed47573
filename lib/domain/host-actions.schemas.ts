import { z } from 'zod';
import { named, resourceId } from '@/lib/domain/shared.schemas';
import { participantRole } from '@/lib/domain/participants.schemas';

/** A host's per-person actions in the call (/api/v1/me/participants/...): request and response schemas. */
export const hostMuteInput = z.object({
  source: z.enum(['microphone', 'camera']).describe('The microphone (mute) or the camera (stop video).'),
});
export const hostRoleInput = z.object({ role: participantRole });
export const hostMoveInput = z.object({ breakoutId: resourceId });
export const spotlightInput = z.object({
  participantId: resourceId.nullable().describe('Who everyone’s stage focuses; null removes the spotlight.'),
});

export const hostMuteResponse = named(
  'HostMute',
  'How many of the participant’s tracks from that source were muted.',
  z.object({ participantId: z.string(), mutedTracks: z.int() }),
);

export const rosterResponse = named(
  'CallRoster',
  'Who is connected to the main room, as the host’s per-person actions name them, and the open breakouts to move them to.',
  z.object({
    participants: z.array(
      z.object({
        id: z.string(),
        mediaIdentity: z.string(),
        displayName: z.string(),
        role: participantRole,
      }),
    ),
    breakouts: z.array(z.object({ id: z.string(), name: z.string() })),
  }),
);

export const spotlightResponse = named(
  'Spotlight',
  'Who is in the spotlight now (null: nobody) and when it was set, as every participant’s call reads it.',
  z.object({ participantId: z.string().nullable(), spotlightedAt: z.iso.datetime() }),
);
