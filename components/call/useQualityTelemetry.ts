'use client';

import { useEffect } from 'react';
import { DisconnectReason, type Participant, type Room, RoomEvent, Track, type TrackPublication } from 'livekit-client';
import type { QualityReport, ReportedSample, ReportedTrack } from '@/lib/domain/quality.schemas';
import {
  MAX_SAMPLES_PER_REPORT,
  MAX_TRACKS_PER_SAMPLE,
  QUALITY_REPORT_INTERVAL_MS,
  QUALITY_REPORT_MAX_BYTES,
  QUALITY_SAMPLE_INTERVAL_MS,
} from '@/lib/domain/quality-limits';

/**
 * Call-quality telemetry: every QUALITY_SAMPLE_INTERVAL_MS the call reads the WebRTC statistics
 * of each of its tracks (what it sends, what it receives), turns the counters' changes into one
 * sample (bitrate, loss, jitter, round-trip time, frame rate and size, why the encoder is held
 * back, concealed audio) and reports the samples with the participant token every
 * QUALITY_REPORT_INTERVAL_MS, at once when one shows trouble or the first calm one after it, and
 * as the person leaves (POST /api/v1/me/quality; lib/domain/quality.ts files them under the live session). What it costs the page: one getStats
 * per track, awaited one after another, and a few milliseconds of arithmetic, measured as the
 * `convene.quality.sample` performance entry (e2e/quality.spec.ts holds its median under a frame).
 */
export function useQualityTelemetry(room: Room, token: string, roomId: string | null) {
  useEffect(() => {
    if (!roomId) return;
    const telemetry = new QualityTelemetry(room, token, roomId);
    return () => telemetry.stop();
  }, [room, token, roomId]);
}

type Counters = Record<string, number>;
type CallEvent = NonNullable<ReportedSample['events']>[number] & { at: number };
type Source = ReportedTrack['source'];

const SOURCES: Partial<Record<Track.Source, Source>> = {
  [Track.Source.Camera]: 'camera',
  [Track.Source.Microphone]: 'microphone',
  [Track.Source.ScreenShare]: 'screen_share',
  [Track.Source.ScreenShareAudio]: 'screen_share_audio',
};
const MUTABLE: Partial<Record<Track.Source, 'microphone' | 'camera' | 'screen_share'>> = {
  [Track.Source.Camera]: 'camera',
  [Track.Source.Microphone]: 'microphone',
  [Track.Source.ScreenShare]: 'screen_share',
};
const round1 = (x: number) => Math.round(x * 10) / 10;
const clampPct = (x: number) => Math.min(100, Math.max(0, round1(x)));

export class QualityTelemetry {
  private counters = new Map<string, Counters>();
  private events: CallEvent[] = [];
  private pending: { sample: ReportedSample; takenAt: number }[] = [];
  private sessionId: string | undefined;
  private lastSample = performance.now();
  /** When a report was last sent; undefined until the first (which goes with the first sample). */
  private lastSent: number | undefined;
  private timer: ReturnType<typeof setInterval>;
  private stopped = false;
  /** Whether the last sample showed trouble: the first calm one after it goes at once too. */
  private troubled = false;
  private readonly client = clientInfo();

  constructor(
    private room: Room,
    private token: string,
    private roomId: string,
  ) {
    room.on(RoomEvent.TrackMuted, this.onMuted).on(RoomEvent.TrackUnmuted, this.onUnmuted);
    room.on(RoomEvent.Reconnecting, this.onReconnecting).on(RoomEvent.Reconnected, this.onReconnected);
    room.once(RoomEvent.Disconnected, this.onDisconnected);
    window.addEventListener('pagehide', this.onPageHide);
    // The counters' first reading is the baseline: each sample is the change since the one before.
    setTimeout(() => void this.read().then((reports) => this.stopped || this.sample(reports, performance.now())), 1000);
    this.timer = setInterval(() => void this.tick(), QUALITY_SAMPLE_INTERVAL_MS);
  }

  /**
   * The call ended: nothing more is sampled or sent. What waits is sent only when the person
   * left by themselves (onDisconnected) or closes the page: a meeting ended for everyone has no
   * live session left to file it under, and the refusal would be an error in the page's console.
   */
  stop() {
    if (this.stopped) return;
    this.stopped = true;
    clearInterval(this.timer);
    window.removeEventListener('pagehide', this.onPageHide);
    this.room.off(RoomEvent.TrackMuted, this.onMuted).off(RoomEvent.TrackUnmuted, this.onUnmuted);
    this.room.off(RoomEvent.Reconnecting, this.onReconnecting).off(RoomEvent.Reconnected, this.onReconnected);
  }

  private event(type: CallEvent['type'], publication?: TrackPublication, participant?: Participant) {
    if (participant && participant !== this.room.localParticipant) return;
    const source = publication ? MUTABLE[publication.source] : undefined;
    if (publication && !source) return;
    this.events.push({ type, ...(source ? { source } : {}), ageMs: 0, at: performance.now() });
    if (this.events.length > 20) this.events.shift();
  }
  private onMuted = (p: TrackPublication, who: Participant) => this.event('muted', p, who);
  private onUnmuted = (p: TrackPublication, who: Participant) => this.event('unmuted', p, who);
  private onReconnecting = () => this.event('reconnecting');
  private onReconnected = () => this.event('reconnected');
  /** The person left (Leave, or the embedding page's leave): what they sampled since the last report goes now. */
  private onDisconnected = (reason?: DisconnectReason) => {
    if (reason === DisconnectReason.CLIENT_INITIATED && !this.stopped && this.pending.length) void this.send();
    this.stop();
  };
  /** The page is closed or navigated away from mid-call: the same (the request outlives the page: keepalive). */
  private onPageHide = () => {
    if (!this.stopped && this.pending.length) void this.send();
  };

  /** Every track's statistics, one getStats at a time (a burst of them would compete with the call). */
  private async read() {
    const local = [...this.room.localParticipant.trackPublications.values()].map((p) => ({ p, from: undefined }));
    const remote = [...this.room.remoteParticipants.values()].flatMap((who) =>
      [...who.trackPublications.values()].filter((p) => p.isSubscribed).map((p) => ({ p, from: who.identity })),
    );
    const reports: { publication: TrackPublication; from?: string; stats: RTCStatsReport }[] = [];
    for (const { p, from } of [...local, ...remote]) {
      if (this.stopped) return reports;
      const stats = await p.track?.getRTCStatsReport().catch(() => undefined);
      if (stats) reports.push({ publication: p, from, stats });
    }
    return reports;
  }

  private async tick() {
    const reports = await this.read();
    if (this.stopped) return;
    const started = performance.now();
    const sample = this.sample(reports, started);
    performance.measure('convene.quality.sample', { start: started });
    if (sample.tracks.length || sample.connection) {
      this.pending.push({ sample, takenAt: started });
      // After failed sends: the newest few.
      if (this.pending.length > MAX_SAMPLES_PER_REPORT) this.pending.shift();
      const due =
        this.lastSent === undefined ||
        started - this.lastSent >= QUALITY_REPORT_INTERVAL_MS - QUALITY_SAMPLE_INTERVAL_MS / 2;
      const wasTroubled = this.troubled;
      this.troubled = troubled(sample);
      if (due || this.troubled || wasTroubled) void this.send();
    }
  }

  private delta(id: string, now: Counters): Counters | null {
    const before = this.counters.get(id);
    this.counters.set(id, now);
    if (!before) return null;
    const out: Counters = {};
    for (const k of Object.keys(now)) out[k] = Math.max(0, now[k] - (before[k] ?? 0));
    return out;
  }

  /** One sample from the tracks' statistics: each counter's change since the last reading. */
  private sample(reports: { publication: TrackPublication; from?: string; stats: RTCStatsReport }[], now: number) {
    const intervalMs = Math.max(1000, Math.round(now - this.lastSample));
    this.lastSample = now;
    const tracks: ReportedTrack[] = [];
    let connection: ReportedSample['connection'];
    for (const { publication, from, stats } of reports) {
      const kind = publication.kind === Track.Kind.Video ? 'video' : 'audio';
      const source = SOURCES[publication.source] ?? 'unknown';
      const all = [...stats.values()] as Record<string, any>[];
      if (!from) {
        const track = this.sendTrack(all, kind, source);
        if (track) tracks.push(track);
        connection ??= connectionOf(all, stats);
      } else {
        const track = this.receiveTrack(all, kind, source, from);
        if (track) tracks.push(track);
      }
    }
    const send = tracks.filter((t) => t.direction === 'send');
    // The busiest received tracks, when there are more than a sample may carry.
    const receive = tracks
      .filter((t) => t.direction === 'receive')
      .sort((a, b) => b.kbps - a.kbps)
      .slice(0, Math.max(0, MAX_TRACKS_PER_SAMPLE - send.length));
    const quality = this.room.localParticipant.connectionQuality;
    if (connection && ['excellent', 'good', 'poor', 'lost'].includes(quality))
      connection.quality = quality as NonNullable<typeof connection.quality>;
    const events = this.events.splice(0);
    return {
      ageMs: 0,
      intervalMs: Math.min(intervalMs, 60_000),
      tracks: [...send, ...receive],
      ...(connection ? { connection } : {}),
      ...(events.length ? { events } : {}),
    } as ReportedSample & { events?: CallEvent[] };
  }

  private sendTrack(all: Record<string, any>[], kind: 'audio' | 'video', source: Source): ReportedTrack | null {
    let bits = 0;
    let seconds = 0;
    let limited = 0;
    let top: Record<string, any> | undefined;
    for (const s of all.filter((s) => s.type === 'outbound-rtp')) {
      const durations = s.qualityLimitationDurations as Record<string, number> | undefined;
      const d = this.delta(s.id, {
        bytes: s.bytesSent ?? 0,
        t: s.timestamp,
        limited: durations ? (durations.bandwidth ?? 0) + (durations.cpu ?? 0) + (durations.other ?? 0) : 0,
      });
      if (!d || d.t <= 0) continue;
      bits += d.bytes * 8;
      seconds = Math.max(seconds, d.t / 1000);
      if (d.bytes > 0 && (!top || (s.frameHeight ?? 0) > (top.frameHeight ?? 0))) top = s;
      limited = Math.max(limited, d.limited / (d.t / 1000));
    }
    if (!seconds) return null;
    const remotes = all.filter((s) => s.type === 'remote-inbound-rtp');
    const remote = remotes.sort((a, b) => (b.fractionLost ?? 0) - (a.fractionLost ?? 0))[0];
    const reason = top?.qualityLimitationReason as ReportedTrack['limitation'] | undefined;
    return {
      direction: 'send',
      kind,
      source,
      kbps: round1(bits / seconds / 1000),
      ...(typeof remote?.fractionLost === 'number' ? { lossPct: clampPct(remote.fractionLost * 100) } : {}),
      ...(typeof remote?.roundTripTime === 'number'
        ? { rttMs: round1(Math.min(60, remote.roundTripTime) * 1000) }
        : {}),
      ...(kind === 'video' && top
        ? {
            ...(typeof top.framesPerSecond === 'number' ? { fps: round1(top.framesPerSecond) } : {}),
            ...(top.frameWidth ? { width: top.frameWidth, height: top.frameHeight } : {}),
            ...(reason ? { limitation: reason } : {}),
            limitedPct: clampPct(limited * 100),
          }
        : {}),
    };
  }

  private receiveTrack(
    all: Record<string, any>[],
    kind: 'audio' | 'video',
    source: Source,
    from: string,
  ): ReportedTrack | null {
    const s = all.find((x) => x.type === 'inbound-rtp');
    if (!s) return null;
    const d = this.delta(s.id, {
      bytes: s.bytesReceived ?? 0,
      t: s.timestamp,
      received: s.packetsReceived ?? 0,
      lost: Math.max(0, s.packetsLost ?? 0),
      concealed: s.concealedSamples ?? 0,
      samples: s.totalSamplesReceived ?? 0,
      freezes: s.freezeCount ?? 0,
    });
    if (!d || d.t <= 0) return null;
    const packets = d.received + d.lost;
    return {
      direction: 'receive',
      kind,
      source,
      from: from.slice(0, 128),
      kbps: round1((d.bytes * 8) / d.t),
      ...(packets > 0 ? { lossPct: clampPct((100 * d.lost) / packets) } : {}),
      ...(typeof s.jitter === 'number' ? { jitterMs: round1(Math.min(60, s.jitter) * 1000) } : {}),
      ...(kind === 'video' && typeof s.framesPerSecond === 'number' ? { fps: round1(s.framesPerSecond) } : {}),
      ...(kind === 'video' && s.frameWidth ? { width: s.frameWidth, height: s.frameHeight } : {}),
      ...(kind === 'audio' && d.samples > 0 ? { concealedPct: clampPct((100 * d.concealed) / d.samples) } : {}),
      ...(kind === 'video' ? { freezes: Math.min(1000, d.freezes) } : {}),
    };
  }

  private async send() {
    const sentAt = performance.now();
    this.lastSent = sentAt;
    const batch = this.pending.slice(-MAX_SAMPLES_PER_REPORT);
    const report: QualityReport = {
      roomId: this.roomId,
      ...(this.sessionId ? { sessionId: this.sessionId } : {}),
      client: this.client,
      samples: batch.map(({ sample, takenAt }) => ({
        ...sample,
        ageMs: Math.min(119_000, Math.round(sentAt - takenAt)),
        ...(sample.events
          ? {
              events: (sample.events as CallEvent[]).map(({ at, ...e }) => ({
                ...e,
                ageMs: Math.min(119_000, Math.round(sentAt - at)),
              })),
            }
          : {}),
      })),
    };
    let body = JSON.stringify(report);
    while (body.length > QUALITY_REPORT_MAX_BYTES - 512 && report.samples.length > 1) {
      report.samples.shift();
      body = JSON.stringify(report);
    }
    try {
      const res = await fetch('/api/v1/me/quality', {
        method: 'POST',
        headers: { authorization: `Bearer ${this.token}`, 'content-type': 'application/json' },
        body,
        keepalive: true,
      });
      if (res.status === 201) {
        this.sessionId = ((await res.json()) as { sessionId: string }).sessionId;
        this.pending = this.pending.filter((p) => !batch.includes(p));
      } else if (res.status === 409 || res.status === 400) {
        // Not the live session (it changed), a full series or a sample refused: these are not kept.
        this.sessionId = undefined;
        this.pending = this.pending.filter((p) => !batch.includes(p));
      } else if (res.status === 401 || res.status === 403) this.stop(); // removed, or the token ended
    } catch {
      // offline for a moment: the samples wait for the next send
    }
  }
}

/**
 * A sample a person would notice: loss, a held-back camera, a long round trip, or the connection
 * dropping. It is sent at once, so the console's live view shows trouble as it happens.
 */
function troubled(sample: ReportedSample) {
  if (sample.events?.some((e) => e.type === 'reconnecting' || e.type === 'reconnected')) return true;
  if ((sample.connection?.rttMs ?? 0) >= 300) return true;
  return sample.tracks.some(
    (t) =>
      (t.lossPct ?? 0) >= 5 ||
      (t.concealedPct ?? 0) >= 5 ||
      (t.freezes ?? 0) > 0 ||
      (t.limitation !== undefined && t.limitation !== 'none' && (t.limitedPct ?? 0) >= 50),
  );
}

/** The selected candidate pair's round-trip time, the send bandwidth estimate, and how the connection goes. */
function connectionOf(all: Record<string, any>[], stats: RTCStatsReport): ReportedSample['connection'] {
  const pair = all.find((s) => s.type === 'candidate-pair' && s.nominated && s.state === 'succeeded');
  if (!pair) return undefined;
  const local = stats.get(pair.localCandidateId) as Record<string, any> | undefined;
  const candidateType = local?.candidateType;
  const protocol = local?.relayProtocol ?? local?.protocol;
  return {
    ...(typeof pair.currentRoundTripTime === 'number'
      ? { rttMs: round1(Math.min(60, pair.currentRoundTripTime) * 1000) }
      : {}),
    ...(typeof pair.availableOutgoingBitrate === 'number'
      ? { availableOutKbps: round1(Math.min(1e9, pair.availableOutgoingBitrate) / 1000) }
      : {}),
    ...(['host', 'srflx', 'prflx', 'relay'].includes(candidateType) ? { candidateType } : {}),
    ...(['udp', 'tcp', 'tls'].includes(protocol) ? { protocol } : {}),
  };
}

/** The browser, OS and network type, as far as the browser tells (no fingerprinting beyond the user agent). */
function clientInfo(): NonNullable<QualityReport['client']> {
  const ua = navigator.userAgent;
  const version = (re: RegExp) => re.exec(ua)?.[1] ?? '';
  const browser = /Edg\//.test(ua)
    ? `Edge ${version(/Edg\/(\d+)/)}`
    : /Firefox\//.test(ua)
      ? `Firefox ${version(/Firefox\/(\d+)/)}`
      : /Chrome\//.test(ua)
        ? `Chrome ${version(/Chrome\/(\d+)/)}`
        : /Safari\//.test(ua)
          ? `Safari ${version(/Version\/(\d+)/)}`
          : 'Other';
  const os = /Android/.test(ua)
    ? 'Android'
    : /iPhone|iPad|iPod/.test(ua)
      ? 'iOS'
      : /Windows/.test(ua)
        ? 'Windows'
        : /Mac OS X/.test(ua)
          ? 'macOS'
          : /CrOS/.test(ua)
            ? 'ChromeOS'
            : /Linux/.test(ua)
              ? 'Linux'
              : 'Other';
  const type = (navigator as Navigator & { connection?: { type?: string } }).connection?.type;
  const known = ['wifi', 'ethernet', 'cellular', 'bluetooth', 'wimax', 'mixed', 'other', 'none', 'unknown'] as const;
  const networkType = known.find((k) => k === type) ?? 'unknown';
  return { browser: browser.trim().slice(0, 64), os, networkType };
}
