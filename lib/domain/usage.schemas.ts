import { z } from 'zod';
import { named } from '@/lib/domain/shared.schemas';

/** Usage: request and response schemas. */
export const usageQuery = z.object({
  from: z.iso.date().optional(),
  to: z.iso.date().optional(),
});

const usageTotals = {
  apiRequests: z.number(),
  participantMinutes: z.number(),
  recordingMinutes: z.number(),
  streamingMinutes: z.number(),
  captionMinutes: z.number(),
  /** Minutes of audio sent to the speech-to-text service for transcripts. */
  transcriptionMinutes: z.number(),
  /** Meeting summaries made. */
  summaries: z.number(),
};
export const usageResponse = named(
  'Usage',
  'Daily usage (UTC days, from..to inclusive) and month-to-date totals.',
  z.object({
    from: z.iso.date(),
    to: z.iso.date(),
    data: z.array(z.object({ day: z.iso.date(), ...usageTotals })),
    monthToDate: z.object(usageTotals),
  }),
);
