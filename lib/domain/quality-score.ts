import type { QUALITY_ISSUES, ReportedSample, ReportedTrack } from '@/lib/domain/quality.schemas';

/**
 * How a quality sample is read: the participant-level figures derived from its tracks, and its
 * 1–5 score. Pure, so the API, the console and the tests read samples one way; docs/console.md
 * states the same table for tenants.
 *
 * A sample scores the worst of the measures it has, each scored 5 (excellent) to 1 (bad) by
 * thresholds below. Only what the participant's own network and device cause is scored: what they
 * send and receive over the wire, and their own encoder being held back — not the frame rate
 * they receive, which is the sender's (a thin stream from someone else lowers that person's score).
 */
export type QualityIssue = (typeof QUALITY_ISSUES)[number];

export interface SampleFigures {
  sendKbps: number | null;
  recvKbps: number | null;
  sendLossPct: number | null;
  recvLossPct: number | null;
  rttMs: number | null;
  jitterMs: number | null;
  sendFps: number | null;
  sendHeight: number | null;
  recvFps: number | null;
  concealedPct: number | null;
  availableOutKbps: number | null;
  limitation: 'bandwidth' | 'cpu' | 'other' | null;
  limitedPct: number | null;
}

const sum = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) : null);
const max = (xs: number[]) => (xs.length ? Math.max(...xs) : null);
const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : null);
const defined = (xs: (number | undefined)[]) => xs.filter((x): x is number => x !== undefined);
const round1 = (x: number | null) => (x === null ? null : Math.round(x * 10) / 10);

/** The participant's figures for one sample, from what their call reported per track. */
export function figuresOf(sample: Pick<ReportedSample, 'tracks' | 'connection'>): SampleFigures {
  const send = sample.tracks.filter((t) => t.direction === 'send');
  const receive = sample.tracks.filter((t) => t.direction === 'receive');
  const camera = send.find((t) => t.kind === 'video' && t.source === 'camera' && t.kbps > 0);
  const receivedCameras = receive.filter((t) => t.kind === 'video' && t.source === 'camera' && t.kbps > 0);
  const receivedAudio = receive.filter((t) => t.kind === 'audio');
  const limitation = camera?.limitation && camera.limitation !== 'none' ? camera.limitation : null;
  return {
    sendKbps: round1(sum(send.map((t) => t.kbps))),
    recvKbps: round1(sum(receive.map((t) => t.kbps))),
    sendLossPct: round1(max(defined(send.map((t) => t.lossPct)))),
    recvLossPct: round1(weightedLoss(receive)),
    rttMs: round1(sample.connection?.rttMs ?? max(defined(send.map((t) => t.rttMs)))),
    jitterMs: round1(
      max(defined(receivedAudio.map((t) => t.jitterMs))) ?? max(defined(receive.map((t) => t.jitterMs))),
    ),
    sendFps: round1(camera?.fps ?? null),
    sendHeight: camera?.height ?? null,
    recvFps: round1(mean(defined(receivedCameras.map((t) => t.fps)))),
    concealedPct: round1(max(defined(receivedAudio.map((t) => t.concealedPct)))),
    availableOutKbps: round1(sample.connection?.availableOutKbps ?? null),
    limitation,
    limitedPct: camera?.limitedPct ?? (limitation ? 100 : camera ? 0 : null),
  };
}

/** Received loss, weighted by each track's bitrate (a silent audio track's loss says little). */
function weightedLoss(tracks: ReportedTrack[]): number | null {
  const measured = tracks.filter((t) => t.lossPct !== undefined);
  if (!measured.length) return null;
  const weight = measured.reduce((a, t) => a + Math.max(t.kbps, 1), 0);
  return measured.reduce((a, t) => a + t.lossPct! * Math.max(t.kbps, 1), 0) / weight;
}

/** Below the first bound scores 5, below the second 4, … at or above the last 1. */
function tier(value: number, bounds: readonly [number, number, number, number]): number {
  const i = bounds.findIndex((b) => value < b);
  return i === -1 ? 1 : 5 - i;
}

/** The thresholds (docs/console.md's table says the same). */
export const SCORE_BOUNDS = {
  packet_loss: [1, 2.5, 5, 10],
  latency: [150, 250, 400, 700],
  jitter: [20, 30, 50, 100],
  audio_concealment: [2, 5, 10, 20],
} as const;
/** The sent camera, scored only while its encoder was limited a quarter of the sample or more: by what got out. */
export const LIMITED_VIDEO_KBPS = [500, 250, 100] as const;
export const LIMITED_SHARE_PCT = 25;

/** Each measure's score (1–5), for the measures the sample has. */
export function measureScores(f: SampleFigures): Partial<Record<QualityIssue, number>> {
  const scores: Partial<Record<QualityIssue, number>> = {};
  const loss = Math.max(f.sendLossPct ?? -1, f.recvLossPct ?? -1);
  if (loss >= 0) scores.packet_loss = tier(loss, SCORE_BOUNDS.packet_loss);
  if (f.rttMs !== null) scores.latency = tier(f.rttMs, SCORE_BOUNDS.latency);
  if (f.jitterMs !== null) scores.jitter = tier(f.jitterMs, SCORE_BOUNDS.jitter);
  if (f.concealedPct !== null) scores.audio_concealment = tier(f.concealedPct, SCORE_BOUNDS.audio_concealment);
  if (f.limitedPct !== null) {
    const kbps = f.sendKbps ?? 0;
    scores.video_limited =
      f.limitedPct < LIMITED_SHARE_PCT
        ? 5
        : kbps >= LIMITED_VIDEO_KBPS[0]
          ? 4
          : kbps >= LIMITED_VIDEO_KBPS[1]
            ? 3
            : kbps >= LIMITED_VIDEO_KBPS[2]
              ? 2
              : 1;
  }
  return scores;
}

/** The sample's score (the worst of its measures; null when it measured nothing) and the measures at 3 or less. */
export function scoreOf(f: SampleFigures): { score: number | null; issues: QualityIssue[] } {
  const scores = measureScores(f);
  const values = Object.values(scores);
  return {
    score: values.length ? Math.min(...values) : null,
    issues: (Object.entries(scores) as [QualityIssue, number][]).filter(([, s]) => s <= 3).map(([k]) => k),
  };
}
