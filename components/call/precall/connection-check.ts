import {
  CheckStatus,
  ConnectionCheck,
  LocalAudioTrack,
  LocalVideoTrack,
  Room,
  RoomEvent,
  type RemoteTrack,
  Track,
} from 'livekit-client';
import type { ConnectionTestResponse } from '@/components/call/precall/types';

/**
 * The pre-call connection test, loaded only when the person asks for it (it brings livekit-client,
 * which the call would load anyway). Against the room's media server, with tokens our API mints
 * for a private test room (POST /api/v1/me/connection-test, with the participant's own token):
 *
 *  1. signalling — livekit-client's own ConnectionCheck (its WebSocket check);
 *  2. media both ways — a sender publishes a short test video and tone, a receiver in the same
 *     test room subscribes to them and must decode frames: what goes up comes back down;
 *  3. the network — round-trip time and loss from the sender's statistics, the bandwidth the
 *     browser estimates for sending, and the bitrate that arrived.
 *
 * Nobody in the meeting sees any of it, and it stops the moment the person joins (abort).
 */
export type CheckStep = 'server' | 'media' | 'network';
export interface CheckResult {
  verdict: 'good' | 'weak' | 'blocked';
  /** blocked: what could not be reached. */
  blocked?: 'server' | 'media';
  rttMs?: number;
  lossPct?: number;
  uploadKbps?: number;
  downloadKbps?: number;
}

/**
 * The network may struggle with video past any of these: a round trip a conversation notices, loss
 * video cannot hide, less upload than a small camera picture needs, or an encoder held back by the
 * network for more than half the measurement.
 */
const WEAK = { rttMs: 300, lossPct: 5, uploadKbps: 300 };
const MEDIA_TIMEOUT_MS = 12_000;
const MEASURE_MS = 4000;

export async function runConnectionCheck({
  token,
  serverUrl,
  signal,
  onStep,
}: {
  token: string;
  serverUrl: string;
  signal: AbortSignal;
  onStep: (step: CheckStep) => void;
}): Promise<CheckResult> {
  onStep('server');
  const res = await fetch('/api/v1/me/connection-test', {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    signal,
  });
  if (!res.ok) return { verdict: 'blocked', blocked: 'server' };
  const test = (await res.json()) as ConnectionTestResponse;
  // The participant's join URL names the media server the call will use: the test goes there.
  const url = serverUrl || test.mediaUrl;
  const signalling = await new ConnectionCheck(url, test.sendToken).checkWebsocket();
  if (signal.aborted) throw signal.reason;
  if (signalling.status !== CheckStatus.SUCCESS) return { verdict: 'blocked', blocked: 'server' };

  onStep('media');
  const sender = new Room({ adaptiveStream: false, dynacast: false });
  const receiver = new Room({ adaptiveStream: false, dynacast: false });
  const test$ = testMedia();
  const stop = () => {
    test$.stop();
    void sender.disconnect();
    void receiver.disconnect();
  };
  signal.addEventListener('abort', stop, { once: true });
  try {
    const arrived = new Promise<RemoteTrack>((resolve) =>
      receiver.on(RoomEvent.TrackSubscribed, (track) => track.kind === Track.Kind.Video && resolve(track)),
    );
    const connected = await within(
      Promise.all([receiver.connect(url, test.receiveToken), sender.connect(url, test.sendToken)]),
      MEDIA_TIMEOUT_MS,
    ).then(
      () => true,
      () => false,
    );
    if (!connected || signal.aborted) return aborted(signal) ?? { verdict: 'blocked', blocked: 'media' };
    const video = new LocalVideoTrack(test$.video, undefined, true);
    await sender.localParticipant.publishTrack(video, {
      source: Track.Source.Camera,
      simulcast: false,
      videoEncoding: { maxBitrate: 1_500_000, maxFramerate: 30 },
    });
    await sender.localParticipant.publishTrack(new LocalAudioTrack(test$.audio, undefined, true), {
      source: Track.Source.Microphone,
    });
    const track = await within(arrived, MEDIA_TIMEOUT_MS).catch(() => null);
    const decoding = track && (await framesDecoded(track, MEDIA_TIMEOUT_MS, signal));
    if (!decoding || signal.aborted) return aborted(signal) ?? { verdict: 'blocked', blocked: 'media' };

    onStep('network');
    const [before, sentBefore] = [await inbound(track), await outbound(video)];
    // The round trip read every half second, its median kept: one late reply is not the network.
    const rtts: number[] = [];
    for (let waited = 0; waited < MEASURE_MS; waited += 500) {
      await sleep(500, signal);
      const { rttMs } = await outbound(video);
      if (rttMs !== undefined) rtts.push(rttMs);
    }
    const [after, sent] = [await inbound(track), await outbound(video)];
    const downloadKbps = Math.round(((after.bytes - before.bytes) * 8) / Math.max(1, after.t - before.t));
    // Share of the measurement the encoder sent less than it wanted because the network would not take it.
    const bandwidthLimited = (sent.bandwidthLimitedS - sentBefore.bandwidthLimitedS) / (MEASURE_MS / 1000);
    const result = {
      rttMs: rtts.length ? rtts.sort((a, b) => a - b)[Math.floor(rtts.length / 2)] : sent.rttMs,
      lossPct: Math.round(Math.max(sent.lossPct ?? 0, after.lossPct) * 10) / 10,
      uploadKbps: sent.availableKbps,
      downloadKbps,
    };
    const weak =
      (result.rttMs ?? 0) > WEAK.rttMs ||
      result.lossPct > WEAK.lossPct ||
      (result.uploadKbps !== undefined && result.uploadKbps < WEAK.uploadKbps) ||
      bandwidthLimited > 0.5;
    return { verdict: weak ? 'weak' : 'good', ...result };
  } finally {
    signal.removeEventListener('abort', stop);
    stop();
  }
}

const aborted = (signal: AbortSignal) => {
  if (signal.aborted) throw signal.reason;
  return undefined;
};

function within<T>(promise: Promise<T>, ms: number): Promise<T> {
  return Promise.race([promise, new Promise<T>((_, reject) => setTimeout(() => reject(new Error('timeout')), ms))]);
}

function sleep(ms: number, signal: AbortSignal) {
  return new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(timer), reject(signal.reason)), { once: true });
  });
}

/** A moving test picture and a quiet tone, made in the page: no camera or microphone is opened twice. */
function testMedia() {
  const canvas = document.createElement('canvas');
  canvas.width = 640;
  canvas.height = 360;
  const ctx = canvas.getContext('2d')!;
  let frame = 0;
  // Blocks of changing colour all over the picture: enough detail that the encoder sends a real
  // video bitrate (a plain moving shape compresses to almost nothing), little enough to draw cheaply.
  const timer = setInterval(() => {
    frame++;
    for (let i = 0; i < 24; i++) {
      ctx.fillStyle = `hsl(${(frame * 13 + i * 47) % 360} 70% ${35 + ((frame + i) % 30)}%)`;
      ctx.fillRect(((i * 97 + frame * 11) % 16) * 40, ((i * 53 + frame * 7) % 9) * 40, 80, 80);
    }
  }, 33);
  const video = canvas.captureStream(30).getVideoTracks()[0];
  const audioContext = new AudioContext();
  const tone = audioContext.createOscillator();
  const gain = audioContext.createGain();
  gain.gain.value = 0.05;
  const destination = audioContext.createMediaStreamDestination();
  tone.connect(gain).connect(destination);
  tone.start();
  return {
    video,
    audio: destination.stream.getAudioTracks()[0],
    stop() {
      clearInterval(timer);
      video.stop();
      tone.stop();
      void audioContext.close();
    },
  };
}

type Stat = Record<string, any>;

async function inbound(track: RemoteTrack) {
  const stats = [...((await track.getRTCStatsReport())?.values() ?? [])] as Stat[];
  const s = stats.find((x) => x.type === 'inbound-rtp') ?? {};
  const received = s.packetsReceived ?? 0;
  const lost = Math.max(0, s.packetsLost ?? 0);
  return {
    bytes: s.bytesReceived ?? 0,
    frames: s.framesDecoded ?? 0,
    t: s.timestamp ?? performance.now(),
    lossPct: received + lost > 0 ? (100 * lost) / (received + lost) : 0,
  };
}

async function framesDecoded(track: RemoteTrack, ms: number, signal: AbortSignal): Promise<boolean> {
  const deadline = performance.now() + ms;
  while (performance.now() < deadline && !signal.aborted) {
    if ((await inbound(track)).frames > 5) return true;
    await new Promise((r) => setTimeout(r, 250));
  }
  return false;
}

async function outbound(track: LocalVideoTrack) {
  const stats = await track.getRTCStatsReport();
  const all = [...(stats?.values() ?? [])] as Stat[];
  const remote = all.find((s) => s.type === 'remote-inbound-rtp');
  const pair = all.find((s) => s.type === 'candidate-pair' && s.nominated && s.state === 'succeeded');
  const rtt = pair?.currentRoundTripTime ?? remote?.roundTripTime;
  const sending = all.find((s) => s.type === 'outbound-rtp');
  return {
    bandwidthLimitedS: (sending?.qualityLimitationDurations?.bandwidth as number | undefined) ?? 0,
    rttMs: typeof rtt === 'number' ? Math.round(rtt * 1000) : undefined,
    lossPct: typeof remote?.fractionLost === 'number' ? remote.fractionLost * 100 : undefined,
    availableKbps:
      typeof pair?.availableOutgoingBitrate === 'number' ? Math.round(pair.availableOutgoingBitrate / 1000) : undefined,
  };
}
