import { z } from 'zod';
import { BreakoutStatus } from '@/lib/generated/prisma/enums';
import { externalId, named, nullableTimestamp, page, resourceId, timestamp } from '@/lib/domain/shared.schemas';
import { participantResponse } from '@/lib/domain/participants.schemas';

/** Breakout rooms: request and response schemas. */
export const breakoutCreateInput = z.object({
  name: z.string().trim().min(1).max(100),
  createdByExternalId: externalId,
});
export const breakoutMoveInput = z.object({
  actingExternalUserId: externalId,
  participantId: resourceId,
});

export const breakoutResponse = named(
  'Breakout',
  'A breakout room of a room.',
  z.object({
    id: z.string(),
    roomId: z.string(),
    name: z.string(),
    mediaRoomName: z.string(),
    status: z.enum(BreakoutStatus),
    createdByExternalId: z.string(),
    createdAt: timestamp,
    closedAt: nullableTimestamp,
  }),
);
export type BreakoutResponse = z.output<typeof breakoutResponse>;
export const breakoutPage = page('BreakoutPage', breakoutResponse, 'breakouts (oldest first, unpaginated)');
export const breakoutMoveResponse = named(
  'BreakoutMove',
  'The moved participant and its breakout.',
  z.object({ participant: participantResponse, breakout: breakoutResponse }),
);
