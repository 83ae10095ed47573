import { z } from 'zod';
import { named } from '@/lib/domain/shared.schemas';

/** Raised hands (/api/v1/me/hand, …/participants/{id}/lower-hand): request and response schemas. */
export const handInput = z.object({
  raised: z
    .boolean()
    .describe(
      'true raises the hand (403 FEATURE_DISABLED where the tenant turned raise hand off: raiseHandEnabled); false lowers it.',
    ),
});

export const handResponse = named(
  'Hand',
  'A participant’s hand: raisedAt orders the queue (null when lowered).',
  z.object({ participantId: z.string(), raised: z.boolean(), raisedAt: z.iso.datetime().nullable() }),
);
