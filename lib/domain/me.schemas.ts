import { z } from 'zod';
import { named, page, timestamp } from '@/lib/domain/shared.schemas';
import { participantResponse, participantRole } from '@/lib/domain/participants.schemas';
import { roomFactFields, roomResponse } from '@/lib/domain/rooms.schemas';

/** The participant token's own actions (/api/v1/me): request and response schemas. */
export const lockInput = z.object({ locked: z.boolean() });

export const meResponse = named(
  'Me',
  'Who a participant token belongs to, per our records.',
  z.object({
    participant: participantResponse,
    room: z.object({ ...roomFactFields, isLocked: z.boolean(), status: roomResponse.shape.status }),
    isModerator: z.boolean(),
    entry: z
      .enum(['open', 'locked', 'full', 'ended'])
      .describe(
        'Whether this participant can go in now: open (they hold a seat, or one is free); locked (the room is locked and they hold no seat; hosts and moderators excepted); full (no seat is free and they hold none); ended. A removed participant (a host or the API removed them) or a denied one (refused from the waiting room) gets 403 FORBIDDEN here as on every participant-token endpoint, with one detail `{ field: "entry", message: "removed" | "denied" }` saying which.',
      ),
  }),
);
export const roomLockResponse = named(
  'RoomLock',
  'The room’s lock state.',
  z.object({ roomId: z.string(), isLocked: z.boolean() }),
);
export const waitingParticipantResponse = named(
  'WaitingParticipant',
  'A participant parked in the waiting room.',
  z.object({
    id: z.string(),
    displayName: z.string(),
    avatarUrl: z.string().nullable(),
    role: participantRole,
    waitingSince: timestamp,
  }),
);
export const waitingPage = page(
  'WaitingParticipantPage',
  waitingParticipantResponse,
  'waiting participants (longest waiting first, up to 100)',
);
