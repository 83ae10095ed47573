import { RateLimiterRes } from 'rate-limiter-flexible';
import { db, sql } from '@/lib/db';
import { config } from '@/lib/config';
import { ApiError, forbidden, invalidState, rateLimited } from '@/lib/errors';
import { randomBase62 } from '@/lib/crypto';
import { limiterFor } from '@/lib/rate-limiter';
import type { ParticipantCredential } from '@/lib/domain/me';
import { mediaFor } from '@/lib/domain/media';
import { isInCall } from '@/lib/domain/participants';
import {
  QUALITY_REPORT_AFTER_LEAVING_MS,
  QUALITY_REPORT_WINDOW_SECONDS,
  QUALITY_REPORTS_PER_WINDOW,
  QUALITY_SAMPLES_PER_SERIES,
} from '@/lib/domain/quality-limits';
import { figuresOf, scoreOf } from '@/lib/domain/quality-score';
import { type QualityReport } from '@/lib/domain/quality.schemas';

/**
 * Call quality: what every call's browser measured (its WebRTC statistics, sampled about every
 * 10 s by the hosted call UI and reported in small batches with the participant token), kept per
 * participant per session and read back by the tenant (API, console) as series, summaries and a
 * 1–5 score (lib/domain/quality-score.ts). docs/console.md says what each figure means.
 *
 * A report is untrusted input: bounded by its schema and body limit, rate-limited per participant,
 * filed only under the room's live session (the one the reporter's earlier reports went to), at
 * most QUALITY_SAMPLES_PER_SERIES per participant per session, and dated by this server's clock.
 */

// ───────────────────────────── reports ─────────────────────────────

/** The samples as stored: figures and score derived here, the report's tracks and events kept as detail. */
function sampleRows(report: QualityReport, now: Date) {
  return report.samples.map((s) => {
    const figures = figuresOf(s);
    const events = (s.events ?? []).map((e) => ({
      type: e.type,
      source: e.source ?? null,
      at: new Date(now.getTime() - e.ageMs).toISOString(),
    }));
    return {
      at: new Date(now.getTime() - s.ageMs).toISOString(),
      intervalMs: s.intervalMs,
      score: scoreOf(figures).score,
      ...figures,
      detail: { tracks: s.tracks, connection: s.connection ?? null, ...(events.length ? { events } : {}) },
    };
  });
}

/**
 * Left the call moments ago: the call sends what it sampled since its last report as the person
 * leaves, and the media layer may say they left before that report arrives. Removed and refused
 * people are not "left" (their state says so) and are refused.
 */
const justLeft = (participant: ParticipantCredential['participant'], now: Date) =>
  participant.connectionState === 'DISCONNECTED' &&
  participant.leftAt !== null &&
  now.getTime() - participant.leftAt.getTime() <= QUALITY_REPORT_AFTER_LEAVING_MS;

export async function reportQuality(
  { tenant, room, participant }: ParticipantCredential,
  report: QualityReport,
  now = new Date(),
): Promise<{ sessionId: string; stored: number }> {
  if (report.roomId !== room.id) throw forbidden('This participant token is for another room.');
  if (!isInCall(participant) && !justLeft(participant, now))
    throw invalidState(`Participant is ${participant.connectionState}; only someone in the call reports its quality.`);
  const spent = await limiterFor(QUALITY_REPORTS_PER_WINDOW, QUALITY_REPORT_WINDOW_SECONDS)
    .consume(`quality:${participant.id}`)
    .catch((over: unknown) => {
      if (over instanceof RateLimiterRes) return over;
      throw over; // the store failed
    });
  if (spent.consumedPoints > QUALITY_REPORTS_PER_WINDOW)
    throw rateLimited({
      retryAfterMs: spent.msBeforeNext,
      message: `Too many quality reports: at most ${QUALITY_REPORTS_PER_WINDOW} per ${QUALITY_REPORT_WINDOW_SECONDS} s.`,
    });

  const rows = sampleRows(report, now);
  const times = rows.map((r) => r.at).sort();
  // One statement: the live session, the series (its count raised only while under the cap), the
  // samples. Named, so each pooled connection parses and plans it once rather than on every report
  // (measured: the database's CPU per report about 1.3 → 0.75 ms, the app's a little less too).
  const { rows: result } = await sql().query<{ live: string | null; matched: number; stored: number }>({
    name: 'convene_quality_report',
    text: `WITH live AS (
       SELECT id FROM "RoomSession" WHERE "roomId" = $1 AND "endedAt" IS NULL ORDER BY "startedAt" DESC LIMIT 1
     ), target AS (
       SELECT id FROM live WHERE $2::text IS NULL OR id = $2::text
     ), series AS (
       INSERT INTO "QualitySeries" (id, "tenantId", "roomId", "sessionId", "participantId", "sampleCount",
                                    browser, os, "networkType", "firstAt", "lastAt")
       SELECT $3, $4, $1, target.id, $5, $6, $7, $8, $9, $10::timestamp, $11::timestamp FROM target
       ON CONFLICT ("sessionId", "participantId") DO UPDATE SET
         "sampleCount" = "QualitySeries"."sampleCount" + EXCLUDED."sampleCount",
         "firstAt" = LEAST("QualitySeries"."firstAt", EXCLUDED."firstAt"),
         "lastAt" = GREATEST("QualitySeries"."lastAt", EXCLUDED."lastAt"),
         browser = COALESCE(EXCLUDED.browser, "QualitySeries".browser),
         os = COALESCE(EXCLUDED.os, "QualitySeries".os),
         "networkType" = COALESCE(EXCLUDED."networkType", "QualitySeries"."networkType")
       WHERE "QualitySeries"."sampleCount" + EXCLUDED."sampleCount" <= $12
       RETURNING id
     ), stored AS (
       INSERT INTO "QualitySample" ("seriesId", at, "intervalMs", score, "sendKbps", "recvKbps", "sendLossPct",
         "recvLossPct", "rttMs", "jitterMs", "sendFps", "sendHeight", "recvFps", "concealedPct", "availableOutKbps",
         limitation, "limitedPct", detail)
       SELECT series.id, s.at, s."intervalMs", s.score, s."sendKbps", s."recvKbps", s."sendLossPct", s."recvLossPct",
         s."rttMs", s."jitterMs", s."sendFps", s."sendHeight", s."recvFps", s."concealedPct", s."availableOutKbps",
         s.limitation, s."limitedPct", s.detail
       FROM series, jsonb_to_recordset($13::jsonb) AS s(at timestamp, "intervalMs" int, score int, "sendKbps" real,
         "recvKbps" real, "sendLossPct" real, "recvLossPct" real, "rttMs" real, "jitterMs" real, "sendFps" real,
         "sendHeight" int, "recvFps" real, "concealedPct" real, "availableOutKbps" real, limitation text,
         "limitedPct" real, detail jsonb)
       RETURNING 1
     )
     SELECT (SELECT id FROM live) AS live, (SELECT count(*) FROM target)::int AS matched,
            (SELECT count(*) FROM stored)::int AS stored`,
    values: [
      room.id,
      report.sessionId ?? null,
      `qs_${randomBase62(20)}`,
      tenant.id,
      participant.id,
      rows.length,
      report.client?.browser ?? null,
      report.client?.os ?? null,
      report.client?.networkType ?? null,
      times[0],
      times[times.length - 1],
      QUALITY_SAMPLES_PER_SERIES,
      JSON.stringify(rows),
    ],
  });
  const { live, matched, stored } = result[0];
  if (!live) throw new ApiError('SESSION_NOT_LIVE', 'The room is not live: there is no session to report to.');
  if (!matched)
    throw new ApiError(
      'SESSION_NOT_LIVE',
      'The report names a session that is not the room’s live one; send the live session’s id.',
      [{ field: 'sessionId', message: `the live session is ${live}` }],
    );
  if (stored === 0)
    throw new ApiError(
      'QUALITY_SAMPLES_FULL',
      `This participant already has ${QUALITY_SAMPLES_PER_SERIES} quality samples in this session; later reports are not stored.`,
    );
  return { sessionId: live, stored };
}

// ───────────────────────────── the pre-call connection test ─────────────────────────────

const CONNECTION_TESTS_PER_MINUTE = 6;
const CONNECTION_TEST_TTL_SECONDS = 120;

/**
 * Tokens for a pre-call connection test on the room's media server: a private media room of its
 * own with a sender and a receiver, so the test publishes a track and receives it back without
 * anyone in the meeting seeing it, and without a join, a left or attendance (the media layer's
 * webhooks for a room we do not know are ignored). Its own tokens, not the participant's: a second
 * connection under their identity would put them in the meeting, or push their call out of it.
 */
export async function connectionTest({ tenant, participant }: ParticipantCredential) {
  const spent = await limiterFor(CONNECTION_TESTS_PER_MINUTE, 60)
    .consume(`connection-test:${participant.id}`)
    .catch((over: unknown) => {
      if (over instanceof RateLimiterRes) return over;
      throw over;
    });
  if (spent.consumedPoints > CONNECTION_TESTS_PER_MINUTE)
    throw rateLimited({
      retryAfterMs: spent.msBeforeNext,
      message: `Too many connection tests: at most ${CONNECTION_TESTS_PER_MINUTE} per minute.`,
    });
  const media = mediaFor(tenant);
  const id = randomBase62(16);
  const roomName = `cvtest_${id}`;
  const common = {
    roomName,
    ttlSeconds: CONNECTION_TEST_TTL_SECONDS,
    metadata: JSON.stringify({ connectionTest: true }),
  };
  const [sendToken, receiveToken] = await Promise.all([
    media.mintParticipantToken({
      ...common,
      identity: `test_${id}_send`,
      name: 'Connection test',
      grants: {
        canPublish: true,
        canSubscribe: false,
        canPublishData: false,
        canPublishSources: ['camera', 'microphone'],
      },
    }),
    media.mintParticipantToken({
      ...common,
      identity: `test_${id}_receive`,
      name: 'Connection test',
      grants: { canPublish: false, canSubscribe: true, canPublishData: false },
    }),
  ]);
  return { mediaUrl: media.url, roomName, sendToken, receiveToken, expiresInSeconds: CONNECTION_TEST_TTL_SECONDS };
}

// ───────────────────────────── retention ─────────────────────────────

/**
 * Samples older than RETENTION_DAYS, then the series left without any, are deleted in batches
 * (oldest first, by the `at` index): the lifecycle job calls this with the other retention work.
 */
export async function pruneQuality(
  now = new Date(),
  retentionDays = config().RETENTION_DAYS,
  batch = 500,
): Promise<{ samples: number; series: number }> {
  const cutoff = new Date(now.getTime() - retentionDays * 86_400_000);
  let samples = 0;
  for (;;) {
    const n = await db()
      .$executeRaw`DELETE FROM "QualitySample" WHERE id = ANY(ARRAY(SELECT id FROM "QualitySample" WHERE at < ${cutoff} ORDER BY at LIMIT ${batch}))`;
    samples += n;
    if (n < batch) break;
  }
  let series = 0;
  for (;;) {
    const n = await db().$executeRaw`
      DELETE FROM "QualitySeries" WHERE id = ANY(ARRAY(
        SELECT id FROM "QualitySeries" WHERE "createdAt" < ${cutoff} AND "lastAt" < ${cutoff} ORDER BY "createdAt" LIMIT ${batch}))`;
    series += n;
    if (n < batch) break;
  }
  return { samples, series };
}
