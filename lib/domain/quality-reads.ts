import { db, sql } from '@/lib/db';
import { notFound } from '@/lib/errors';
import type { Tenant } from '@/lib/generated/prisma/client';
import { byTime, pageArgs, toPage } from '@/lib/domain/pagination';
import { toCsv } from '@/lib/domain/csv';
import { scoreOf, type QualityIssue, type SampleFigures } from '@/lib/domain/quality-score';
import {
  QUALITY_MEASURES,
  type ParticipantQuality,
  type QualityMeasure,
  type SessionQuality,
  type sessionQualityQuery,
} from '@/lib/domain/quality.schemas';
import type { z } from 'zod';

/**
 * Reading a session's call quality (lib/domain/quality.ts files the reports): per participant the
 * series averaged to the points asked for, a summary (median and worst of each measure, time poor
 * and in trouble, a 1–5 score), trouble runs and events; the CSV of every sample; the latest
 * figures of those in a live room.
 */

interface SampleRow extends SampleFigures {
  seriesId: string;
  at: Date;
  intervalMs: number;
  score: number | null;
  events: { type: string; source: string | null; at: string }[] | null;
}

/** A session's stored samples for these series, oldest first (figures only; the reported events beside them). */
async function samplesOf(seriesIds: string[]): Promise<SampleRow[]> {
  if (!seriesIds.length) return [];
  const { rows } = await sql().query<SampleRow>(
    `SELECT "seriesId", at, "intervalMs", score, "sendKbps", "recvKbps", "sendLossPct", "recvLossPct", "rttMs",
            "jitterMs", "sendFps", "sendHeight", "recvFps", "concealedPct", "availableOutKbps", limitation,
            "limitedPct", detail->'events' AS events
       FROM "QualitySample" WHERE "seriesId" = ANY($1::text[]) ORDER BY "seriesId", at, id`,
    [seriesIds],
  );
  // timestamp without time zone comes back as local time: it is UTC (Prisma writes UTC)
  for (const r of rows) r.at = asUtc(r.at);
  return rows;
}

function asUtc(d: Date): Date {
  return new Date(d.getTime() - d.getTimezoneOffset() * 60_000);
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
/** Measures where more is better: their worst is the lowest. */
const HIGHER_IS_BETTER = new Set<QualityMeasure>([
  'sendKbps',
  'recvKbps',
  'sendFps',
  'sendHeight',
  'recvFps',
  'availableOutKbps',
]);
const round1 = (x: number) => Math.round(x * 10) / 10;

function summarize(samples: SampleRow[]): ParticipantQuality['summary'] {
  const scored = samples.filter((s) => s.score !== null);
  const seconds = (xs: SampleRow[]) => round1(xs.reduce((a, s) => a + s.intervalMs, 0) / 1000);
  const limited = (reason: 'bandwidth' | 'cpu') =>
    round1(
      samples
        .filter((s) => s.limitation === reason)
        .reduce((a, s) => a + (s.intervalMs * (s.limitedPct ?? 100)) / 100, 0) / 1000,
    );
  const measures = Object.fromEntries(
    QUALITY_MEASURES.map((m) => {
      const values = samples.map((s) => s[m]).filter((v): v is number => v !== null);
      if (!values.length) return [m, { median: null, worst: null }];
      const sorted = values.sort((a, b) => a - b);
      return [
        m,
        {
          median: round1(percentile(sorted, 0.5)),
          worst: round1(HIGHER_IS_BETTER.has(m) ? sorted[0] : sorted.at(-1)!),
        },
      ];
    }),
  ) as ParticipantQuality['summary']['measures'];
  return {
    score: scored.length ? round1(scored.reduce((a, s) => a + s.score!, 0) / scored.length) : null,
    poorSeconds: seconds(scored.filter((s) => s.score! <= 2)),
    troubleSeconds: seconds(scored.filter((s) => s.score! <= 3)),
    limitedSeconds: { bandwidth: limited('bandwidth'), cpu: limited('cpu') },
    measures,
  };
}

const issuesOf = (s: SampleRow) => scoreOf(s).issues;

/** Runs of samples scoring 3 or less (a gap of more than two intervals ends a run). */
function troubleOf(samples: SampleRow[]): ParticipantQuality['trouble'] {
  const runs: ParticipantQuality['trouble'] = [];
  let current: { from: Date; to: Date; worstScore: number; issues: Set<QualityIssue> } | null = null;
  for (const s of samples) {
    const bad = s.score !== null && s.score <= 3;
    const start = new Date(s.at.getTime() - s.intervalMs);
    if (bad && current && start.getTime() - current.to.getTime() <= 2 * s.intervalMs) {
      current.to = s.at;
      current.worstScore = Math.min(current.worstScore, s.score!);
      for (const i of issuesOf(s)) current.issues.add(i);
      continue;
    }
    if (current) runs.push(runView(current));
    current = bad ? { from: start, to: s.at, worstScore: s.score!, issues: new Set(issuesOf(s)) } : null;
  }
  if (current) runs.push(runView(current));
  return runs.slice(0, 100);
}

function runView(r: { from: Date; to: Date; worstScore: number; issues: Set<QualityIssue> }) {
  return { from: r.from.toISOString(), to: r.to.toISOString(), worstScore: r.worstScore, issues: [...r.issues] };
}

/** The series, at most `points` long: longer ones averaged over equal spans, each keeping its worst score. */
function seriesOf(samples: SampleRow[], points: number): ParticipantQuality['series'] {
  const span = Math.ceil(samples.length / points) || 1;
  const out: ParticipantQuality['series'] = [];
  for (let i = 0; i < samples.length; i += span) {
    const group = samples.slice(i, i + span);
    const avg = (m: QualityMeasure) => {
      const values = group.map((s) => s[m]).filter((v): v is number => v !== null);
      return values.length ? round1(values.reduce((a, b) => a + b, 0) / values.length) : null;
    };
    const scores = group.map((s) => s.score).filter((v): v is number => v !== null);
    const limitations = group.map((s) => s.limitation).filter((v): v is NonNullable<typeof v> => v !== null);
    const issues = new Set(group.flatMap(issuesOf));
    out.push({
      at: group.at(-1)!.at.toISOString(),
      seconds: round1(group.reduce((a, s) => a + s.intervalMs, 0) / 1000),
      score: scores.length ? Math.min(...scores) : null,
      ...(Object.fromEntries(QUALITY_MEASURES.map((m) => [m, avg(m)])) as Record<QualityMeasure, number | null>),
      limitation: limitations[0] ?? null,
      issues: [...issues],
    });
  }
  return out;
}

type QualityEvent = ParticipantQuality['events'][number];

/** What happened to a participant in the session: its connections (media layer) and what its call reported. */
function eventsOf(connections: { joinedAt: Date | null; leftAt: Date | null }[], samples: SampleRow[]): QualityEvent[] {
  const events: QualityEvent[] = [];
  const joins = connections.filter((c) => c.joinedAt).sort((a, b) => a.joinedAt!.getTime() - b.joinedAt!.getTime());
  joins.forEach((c, i) =>
    events.push({ at: c.joinedAt!.toISOString(), type: i === 0 ? 'joined' : 'rejoined', source: null }),
  );
  for (const c of connections) if (c.leftAt) events.push({ at: c.leftAt.toISOString(), type: 'left', source: null });
  for (const s of samples)
    for (const e of s.events ?? [])
      events.push({ at: e.at, type: e.type as QualityEvent['type'], source: e.source as QualityEvent['source'] });
  return events.sort((a, b) => a.at.localeCompare(b.at)).slice(0, 500);
}

async function sessionOf(tenant: Tenant, sessionId: string) {
  const session = await db().roomSession.findFirst({ where: { id: sessionId, tenantId: tenant.id } });
  if (!session) throw notFound('Session');
  return session;
}

const SERIES_ORDER = byTime('firstAt', 'asc');

function groupBy<T>(items: T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const group = groups.get(k);
    if (group) group.push(item);
    else groups.set(k, [item]);
  }
  return groups;
}

/** A session's quality, a page of participants at a time (in order of their first sample). */
export async function sessionQuality(
  tenant: Tenant,
  sessionId: string,
  query: z.output<typeof sessionQualityQuery>,
): Promise<SessionQuality> {
  const session = await sessionOf(tenant, sessionId);
  const page = pageArgs(query, SERIES_ORDER);
  const series = await db().qualitySeries.findMany({
    where: { sessionId: session.id, tenantId: tenant.id, ...page.where },
    orderBy: page.orderBy,
    take: page.take,
  });
  const visible = series.slice(0, query.limit);
  const ids = visible.map((s) => s.participantId);
  const [participants, connections, samples] = await Promise.all([
    db().participant.findMany({
      where: { id: { in: ids }, tenantId: tenant.id },
      select: { id: true, externalUserId: true, displayName: true, role: true },
    }),
    db().sessionConnection.findMany({
      where: { sessionId: session.id, participantId: { in: ids } },
      select: { participantId: true, joinedAt: true, leftAt: true },
    }),
    samplesOf(visible.map((s) => s.id)),
  ]);
  const who = new Map(participants.map((p) => [p.id, p]));
  const bySeries = groupBy(samples, (s) => s.seriesId);
  const byParticipant = groupBy(connections, (c) => c.participantId);
  const { data, nextCursor } = toPage(
    series,
    query,
    (s): ParticipantQuality => {
      const p = who.get(s.participantId);
      const own = bySeries.get(s.id) ?? [];
      return {
        participantId: s.participantId,
        externalUserId: p?.externalUserId ?? '',
        displayName: p?.displayName ?? '',
        role: p?.role ?? 'ATTENDEE',
        client: { browser: s.browser, os: s.os, networkType: s.networkType },
        samples: s.sampleCount,
        firstAt: s.firstAt.toISOString(),
        lastAt: s.lastAt.toISOString(),
        summary: summarize(own),
        trouble: troubleOf(own),
        series: seriesOf(own, query.points),
        events: eventsOf(byParticipant.get(s.participantId) ?? [], own),
      };
    },
    { order: SERIES_ORDER },
  );
  return {
    sessionId: session.id,
    roomId: session.roomId,
    startedAt: session.startedAt.toISOString(),
    endedAt: session.endedAt?.toISOString() ?? null,
    data,
    nextCursor,
  };
}

/** Every stored sample of a session as CSV (the console's download): one row per participant per sample. */
export async function sessionQualityCsv(tenant: Tenant, sessionId: string): Promise<string> {
  const session = await sessionOf(tenant, sessionId);
  const series = await db().qualitySeries.findMany({
    where: { sessionId: session.id, tenantId: tenant.id },
    orderBy: [{ firstAt: 'asc' }, { id: 'asc' }],
  });
  const [participants, samples] = await Promise.all([
    db().participant.findMany({
      where: { id: { in: series.map((s) => s.participantId) }, tenantId: tenant.id },
      select: { id: true, externalUserId: true, displayName: true },
    }),
    samplesOf(series.map((s) => s.id)),
  ]);
  const who = new Map(participants.map((p) => [p.id, p]));
  const participantOf = new Map(series.map((s) => [s.id, s.participantId]));
  return toCsv([
    [
      'participantId',
      'externalUserId',
      'displayName',
      'at',
      'seconds',
      'score',
      'issues',
      ...QUALITY_MEASURES,
      'limitation',
    ],
    ...samples.map((s) => {
      const p = who.get(participantOf.get(s.seriesId)!);
      return [
        participantOf.get(s.seriesId),
        p?.externalUserId,
        p?.displayName,
        s.at.toISOString(),
        s.intervalMs / 1000,
        s.score,
        issuesOf(s).join(' '),
        ...QUALITY_MEASURES.map((m) => s[m]),
        s.limitation,
      ];
    }),
  ]);
}

/** Each participant's latest sample in the room's live session, if taken in the last `withinMs` (the live view). */
export async function latestQuality(sessionId: string, withinMs = 30_000, now = new Date()) {
  const { rows } = await sql().query<SampleRow & { participantId: string }>(
    `SELECT DISTINCT ON (q."participantId") q."participantId", s."seriesId", s.at, s."intervalMs", s.score,
            s."sendKbps", s."recvKbps", s."sendLossPct", s."recvLossPct", s."rttMs", s."jitterMs", s."sendFps",
            s."sendHeight", s."recvFps", s."concealedPct", s."availableOutKbps", s.limitation, s."limitedPct",
            NULL AS events
       FROM "QualitySeries" q
       JOIN LATERAL (SELECT * FROM "QualitySample" x WHERE x."seriesId" = q.id ORDER BY x.at DESC LIMIT 1) s ON true
      WHERE q."sessionId" = $1 AND q."lastAt" >= $2::timestamp
      ORDER BY q."participantId"`,
    [sessionId, new Date(now.getTime() - withinMs).toISOString()],
  );
  return new Map(
    rows.map((r) => {
      const at = asUtc(r.at);
      return [r.participantId, { at: at.toISOString(), score: r.score, issues: issuesOf(r), figures: r }] as const;
    }),
  );
}
