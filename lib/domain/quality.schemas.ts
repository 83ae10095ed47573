import { z } from 'zod';
import { paginationQuery } from '@/lib/domain/pagination';
import { participantRole } from '@/lib/domain/participants.schemas';
import { named, resourceId, timestamp } from '@/lib/domain/shared.schemas';
import {
  MAX_REPORT_AGE_MS,
  MAX_SAMPLES_PER_REPORT,
  MAX_TRACKS_PER_SAMPLE,
  QUALITY_REPORT_MAX_BYTES,
  QUALITY_SAMPLES_PER_SERIES,
  QUALITY_REPORT_AFTER_LEAVING_MS,
} from '@/lib/domain/quality-limits';

/**
 * Call quality (lib/domain/quality.ts): the hosted call UI's reports (participant token) and a
 * session's quality as the API serves it (tenant key). A report is untrusted input: every number
 * is bounded, every object strict, and the body limited to QUALITY_REPORT_MAX_BYTES.
 */
const kbps = z.number().min(0).max(1_000_000);
const percent = z.number().min(0).max(100);
const millis = z.number().min(0).max(60_000);

export const reportedTrack = z.strictObject({
  direction: z.enum(['send', 'receive']),
  kind: z.enum(['audio', 'video']),
  source: z.enum(['camera', 'microphone', 'screen_share', 'screen_share_audio', 'unknown']),
  from: z.string().max(128).optional().describe('receive: the media identity of the participant who sends it.'),
  kbps: kbps.describe('Bitrate over the sample (all simulcast layers of a sent track).'),
  lossPct: percent
    .optional()
    .describe('Packets lost: send, as the media server reports receiving them; receive, as this browser counts.'),
  jitterMs: millis.optional(),
  rttMs: millis.optional().describe('send: round-trip time to the media server from its receiver reports.'),
  fps: z.number().min(0).max(240).optional(),
  width: z.int().min(0).max(8192).optional(),
  height: z.int().min(0).max(8192).optional(),
  limitation: z
    .enum(['none', 'bandwidth', 'cpu', 'other'])
    .optional()
    .describe('send video: why the encoder sends less than it would (qualityLimitationReason).'),
  limitedPct: percent.optional().describe('send video: share of the sample the encoder was limited.'),
  concealedPct: percent.optional().describe('receive audio: share of samples the browser had to conceal.'),
  freezes: z.int().min(0).max(1000).optional().describe('receive video: freezes during the sample.'),
});

export const reportedEvent = z.strictObject({
  type: z.enum(['muted', 'unmuted', 'reconnecting', 'reconnected']),
  source: z.enum(['microphone', 'camera', 'screen_share']).optional().describe('muted/unmuted: which.'),
  ageMs: z.int().min(0).max(MAX_REPORT_AGE_MS).describe('How long before the report was sent it happened.'),
});

export const reportedSample = z.strictObject({
  ageMs: z
    .int()
    .min(0)
    .max(MAX_REPORT_AGE_MS)
    .describe('How long before the report was sent the sample ended: the server dates it by its own clock.'),
  intervalMs: z.int().min(1000).max(60_000).describe('The time the sample covers.'),
  tracks: z.array(reportedTrack).max(MAX_TRACKS_PER_SAMPLE),
  connection: z
    .strictObject({
      rttMs: millis.optional().describe('The selected ICE candidate pair’s current round-trip time.'),
      availableOutKbps: kbps.optional().describe('The browser’s estimate of the bandwidth available to send.'),
      candidateType: z.enum(['host', 'srflx', 'prflx', 'relay']).optional(),
      protocol: z.enum(['udp', 'tcp', 'tls']).optional(),
      quality: z
        .enum(['excellent', 'good', 'poor', 'lost', 'unknown'])
        .optional()
        .describe('The media layer’s own connection quality for this participant.'),
    })
    .optional(),
  events: z.array(reportedEvent).max(20).optional(),
});

export const qualityReportInput = z.strictObject({
  roomId: resourceId.describe('The room of the participant token; a report for another room is refused.'),
  sessionId: resourceId
    .optional()
    .describe(
      'The session the earlier reports were filed under (the answer’s sessionId); omitted on the first. A report naming a session that is not the room’s live one is refused (409 SESSION_NOT_LIVE).',
    ),
  client: z
    .strictObject({
      browser: z.string().max(64),
      os: z.string().max(64),
      networkType: z
        .enum(['wifi', 'ethernet', 'cellular', 'bluetooth', 'wimax', 'mixed', 'other', 'none', 'unknown'])
        .optional(),
    })
    .optional(),
  samples: z
    .array(reportedSample)
    .min(1)
    .max(MAX_SAMPLES_PER_REPORT)
    .describe(
      `At most ${MAX_SAMPLES_PER_REPORT} samples of up to ${MAX_TRACKS_PER_SAMPLE} tracks, ${QUALITY_REPORT_MAX_BYTES / 1024} KB in all; ${QUALITY_SAMPLES_PER_SERIES} samples per participant per session are kept. Reported by someone in the call, or within ${QUALITY_REPORT_AFTER_LEAVING_MS / 1000} s after they left (what the call sampled since its last report goes as the person leaves); a removed or refused participant is refused.`,
    ),
});
export type QualityReport = z.infer<typeof qualityReportInput>;
export type ReportedSample = z.infer<typeof reportedSample>;
export type ReportedTrack = z.infer<typeof reportedTrack>;

export const qualityReportResponse = named(
  'QualityReportReceipt',
  'What was kept of a quality report.',
  z.object({
    sessionId: z.string().describe('The session the samples were filed under: send it with the next report.'),
    stored: z.int().describe('Samples stored.'),
  }),
);

// ───────────────────────────── the pre-call connection test ─────────────────────────────

export const connectionTestResponse = named(
  'ConnectionTest',
  'Two short-lived tokens for a private media room of their own on the room’s media server: one publishes a test track, the other receives it back. Nobody in the meeting sees the test, and it is no attendance.',
  z.object({
    mediaUrl: z.string().describe('The room’s media server.'),
    roomName: z.string(),
    sendToken: z.string(),
    receiveToken: z.string(),
    expiresInSeconds: z.int(),
  }),
);

// ───────────────────────────── a session's quality (tenant key) ─────────────────────────────

export const sessionQualityQuery = paginationQuery.extend({
  points: z.coerce
    .number()
    .int()
    .min(10)
    .max(2000)
    .default(360)
    .describe(
      'Most points per participant’s series: longer series are averaged into this many (the score keeps each span’s worst).',
    ),
});

const nullableNumber = z.number().nullable();
const measureSummary = z
  .object({ median: nullableNumber, worst: nullableNumber })
  .describe('Over the participant’s samples; null when none measured it.');

export const QUALITY_MEASURES = [
  'sendKbps',
  'recvKbps',
  'sendLossPct',
  'recvLossPct',
  'rttMs',
  'jitterMs',
  'sendFps',
  'sendHeight',
  'recvFps',
  'concealedPct',
  'availableOutKbps',
] as const;
export type QualityMeasure = (typeof QUALITY_MEASURES)[number];

const measureFields = {
  sendKbps: nullableNumber.describe('Sent bitrate, all tracks (kbit/s).'),
  recvKbps: nullableNumber.describe('Received bitrate, all tracks (kbit/s).'),
  sendLossPct: nullableNumber.describe('Packets sent and lost (%), as the media server reported receiving them.'),
  recvLossPct: nullableNumber.describe('Packets received and lost (%), bitrate-weighted over the received tracks.'),
  rttMs: nullableNumber.describe('Round-trip time to the media server (ms).'),
  jitterMs: nullableNumber.describe('Jitter of received audio (ms; the worst received track).'),
  sendFps: nullableNumber.describe('Frame rate of the sent camera (highest layer).'),
  sendHeight: nullableNumber.describe('Height of the sent camera’s highest layer (px).'),
  recvFps: nullableNumber.describe('Frame rate of received cameras (mean).'),
  concealedPct: nullableNumber.describe('Received audio the browser had to conceal (%; the worst track).'),
  availableOutKbps: nullableNumber.describe('The browser’s estimate of the bandwidth available to send (kbit/s).'),
};

export const QUALITY_ISSUES = ['packet_loss', 'latency', 'jitter', 'audio_concealment', 'video_limited'] as const;
const issue = z.enum(QUALITY_ISSUES);

const seriesPoint = z.object({
  at: timestamp.describe('The end of the span the point covers.'),
  seconds: z.number().describe('The span it covers.'),
  score: z.int().min(1).max(5).nullable().describe('1–5 (docs/console.md); the worst in the span.'),
  ...measureFields,
  limitation: z.enum(['bandwidth', 'cpu', 'other']).nullable().describe('Why the sent camera was limited, if it was.'),
  issues: z.array(issue).describe('The measures that scored 3 or less.'),
});

const qualityEvent = z.object({
  at: timestamp,
  type: z
    .enum(['joined', 'rejoined', 'left', 'muted', 'unmuted', 'reconnecting', 'reconnected'])
    .describe(
      'joined, rejoined (a new connection), left: from the media layer; muted, unmuted, reconnecting, reconnected: as the participant’s call reported them.',
    ),
  source: z.enum(['microphone', 'camera', 'screen_share']).nullable(),
});

export const participantQualityResponse = named(
  'ParticipantQuality',
  'One participant’s call quality in a session: the summary, when they had trouble, the series and what happened.',
  z.object({
    participantId: z.string(),
    externalUserId: z.string(),
    displayName: z.string(),
    role: participantRole,
    client: z
      .object({ browser: z.string().nullable(), os: z.string().nullable(), networkType: z.string().nullable() })
      .describe('As their call reported it.'),
    samples: z.int().describe('Samples stored (each about 10 s).'),
    firstAt: timestamp,
    lastAt: timestamp,
    summary: z.object({
      score: z
        .number()
        .nullable()
        .describe('1–5: the mean of the samples’ scores, to one decimal (docs/console.md says how a sample scores).'),
      poorSeconds: z.number().describe('Time in samples scoring 2 or less.'),
      troubleSeconds: z.number().describe('Time in samples scoring 3 or less.'),
      limitedSeconds: z
        .object({ bandwidth: z.number(), cpu: z.number() })
        .describe('Time the sent camera’s encoder was limited, by reason.'),
      measures: z.object(
        Object.fromEntries(QUALITY_MEASURES.map((m) => [m, measureSummary])) as {
          [K in QualityMeasure]: typeof measureSummary;
        },
      ),
    }),
    trouble: z
      .array(
        z.object({
          from: timestamp,
          to: timestamp,
          worstScore: z.int(),
          issues: z.array(issue),
        }),
      )
      .describe('Runs of samples scoring 3 or less, with what caused them (at most 100).'),
    series: z.array(seriesPoint),
    events: z.array(qualityEvent).describe('Oldest first, at most 500.'),
  }),
);

export const sessionQualityResponse = named(
  'SessionQuality',
  'A session’s call quality, per participant (in order of their first sample).',
  z.object({
    sessionId: z.string(),
    roomId: z.string(),
    startedAt: timestamp,
    endedAt: timestamp.nullable(),
    data: z.array(participantQualityResponse),
    nextCursor: z.string().nullable(),
  }),
);
export type SessionQuality = z.output<typeof sessionQualityResponse>;
export type ParticipantQuality = z.output<typeof participantQualityResponse>;
