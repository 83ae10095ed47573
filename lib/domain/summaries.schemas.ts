import { z } from 'zod';
import { SummaryStatus } from '@/lib/generated/prisma/enums';
import { named, nullableTimestamp, page, timestamp } from '@/lib/domain/shared.schemas';

/** Meeting summaries: request and response schemas. */

/** The built-in kinds of summary, each a different emphasis (lib/domain/summaries.ts). */
export const SUMMARY_KIND_NAMES = ['general', 'standup', 'interview'] as const;
export const summaryKind = z
  .enum(SUMMARY_KIND_NAMES)
  .describe(
    'general (a meeting), standup (per person: done, next, blockers) or interview (an interview or consultation).',
  );

/** A tenant's own instruction, added to the built-in kind's. */
export const MAX_SUMMARY_INSTRUCTION_CHARS = 1_000;
const instruction = z
  .string()
  .trim()
  .min(1)
  .max(MAX_SUMMARY_INSTRUCTION_CHARS)
  .describe(
    `An instruction of your own for the model (at most ${MAX_SUMMARY_INSTRUCTION_CHARS} characters), e.g. "Name the customer's product."`,
  );

export const summaryInput = z.object({
  /** Default: the tenant's setting (GET /api/v1/summaries/settings), else general. */
  kind: summaryKind.optional(),
  /** Default: the tenant's setting; null for none. */
  instruction: instruction.nullable().optional(),
});

export const summarySettingsInput = z.object({
  kind: summaryKind,
  instruction: instruction.nullable().default(null),
});

export const summarySettingsResponse = named(
  'SummarySettings',
  "The summary a transcript gets when it completes in a room with enableAiFeatures: a built-in kind and the tenant's own instruction.",
  z.object({
    kind: summaryKind,
    instruction: z.string().nullable(),
    configured: z.boolean().describe('A language model is configured here (LLM_BASE_URL).'),
  }),
);

const actionItem = z.object({
  text: z.string(),
  owner: z.string().nullable().describe('Who takes it, when the meeting named someone.'),
});

export const summaryResponse = named(
  'Summary',
  "An AI summary of a transcript, in the transcript's language: an overview, decisions, action items (with owners when named) and open questions.",
  z.object({
    id: z.string(),
    transcriptId: z.string(),
    roomId: z.string(),
    sessionId: z.string().nullable(),
    status: z
      .enum(SummaryStatus)
      .describe(
        'PENDING → PROCESSING → COMPLETED | FAILED (a provider failure is retried with backoff while nextAttemptAt is set).',
      ),
    kind: summaryKind,
    instruction: z.string().nullable(),
    language: z.string().nullable(),
    overview: z.string().nullable(),
    decisions: z.array(z.string()),
    actionItems: z.array(actionItem),
    openQuestions: z.array(z.string()),
    provider: z.string().nullable().describe('The language-model service (its host).'),
    model: z.string().nullable(),
    error: z.string().nullable(),
    attempts: z.int(),
    nextAttemptAt: nullableTimestamp,
    createdAt: timestamp,
    completedAt: nullableTimestamp,
  }),
);
export type SummaryResponse = z.output<typeof summaryResponse>;
export const summaryPage = page('SummaryPage', summaryResponse, 'summaries (newest first)');

/** What the model is asked to answer, and what is kept of it. */
export const summaryContent = z.object({
  overview: z.string().catch(''),
  decisions: z.array(z.string()).catch([]),
  actionItems: z
    .array(
      z.union([
        z.object({ text: z.string(), owner: z.string().nullable().optional() }),
        z.string().transform((text) => ({ text, owner: null })),
      ]),
    )
    .catch([]),
  openQuestions: z.array(z.string()).catch([]),
});
export type SummaryContent = z.output<typeof summaryContent>;
