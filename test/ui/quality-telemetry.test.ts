/**
 * The call's quality reports: when they go out, and with what. A sample every 10 s; the first at
 * once (the console's live view sees the person early), then every QUALITY_REPORT_INTERVAL_MS with
 * the samples since; a sample that shows trouble, and the first calm one after it, at once with
 * those waiting before it; what waits when the person leaves, as they leave. Run on fake timers
 * with a room whose camera's statistics grow as a sending camera's do.
 */
import { EventEmitter } from 'node:events';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { DisconnectReason, type Room, RoomEvent } from 'livekit-client';
import { QualityTelemetry } from '@/components/call/useQualityTelemetry';
import { QUALITY_REPORT_INTERVAL_MS, QUALITY_SAMPLE_INTERVAL_MS } from '@/lib/domain/quality-limits';

interface Sent {
  at: number;
  body: { roomId: string; sessionId?: string; samples: { tracks: { lossPct?: number }[] }[] };
}

let sent: Sent[];
let lossFraction: number;
let telemetry: QualityTelemetry | undefined;

/** A room with one camera being sent: its bytes grow 50 KB a second, its loss as the test sets it. */
function sendingRoom(): Room {
  const started = Date.now();
  const camera = {
    kind: 'video',
    source: 'camera',
    track: {
      getRTCStatsReport: async () => {
        const elapsed = Date.now() - started;
        return new Map<string, object>([
          [
            'out',
            {
              id: 'out',
              type: 'outbound-rtp',
              bytesSent: elapsed * 50,
              timestamp: Date.now(),
              frameWidth: 640,
              frameHeight: 360,
              framesPerSecond: 30,
              qualityLimitationReason: 'none',
            },
          ],
          ['remote', { id: 'remote', type: 'remote-inbound-rtp', fractionLost: lossFraction, roundTripTime: 0.04 }],
        ]);
      },
    },
  };
  const room = Object.assign(new EventEmitter(), {
    localParticipant: { trackPublications: new Map([['TR_cam', camera]]), connectionQuality: 'excellent' },
    remoteParticipants: new Map(),
  });
  return room as unknown as Room;
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'setInterval', 'Date', 'performance'] });
  vi.stubGlobal('window', new EventTarget());
  vi.stubGlobal('navigator', { userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Chrome/140.0 Safari/537.36' });
  sent = [];
  lossFraction = 0;
  vi.stubGlobal(
    'fetch',
    vi.fn(async (_url: string, init: RequestInit) => {
      sent.push({ at: Date.now(), body: JSON.parse(String(init.body)) });
      return new Response(JSON.stringify({ sessionId: 'ses_1' }), { status: 201 });
    }),
  );
});

afterEach(() => {
  telemetry?.stop();
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

it('sends the first sample at once, then the samples of each interval together', async () => {
  const start = Date.now();
  telemetry = new QualityTelemetry(sendingRoom(), 'token', 'room_1');
  await vi.advanceTimersByTimeAsync(QUALITY_SAMPLE_INTERVAL_MS);
  expect(sent.map((s) => s.at - start)).toEqual([QUALITY_SAMPLE_INTERVAL_MS]);
  expect(sent[0].body.samples).toHaveLength(1);
  expect(sent[0].body.sessionId).toBeUndefined();

  await vi.advanceTimersByTimeAsync(QUALITY_REPORT_INTERVAL_MS * 2);
  expect(sent.map((s) => s.at - start)).toEqual([
    QUALITY_SAMPLE_INTERVAL_MS,
    QUALITY_SAMPLE_INTERVAL_MS + QUALITY_REPORT_INTERVAL_MS,
    QUALITY_SAMPLE_INTERVAL_MS + QUALITY_REPORT_INTERVAL_MS * 2,
  ]);
  const perReport = QUALITY_REPORT_INTERVAL_MS / QUALITY_SAMPLE_INTERVAL_MS;
  expect(sent.slice(1).map((s) => s.body.samples.length)).toEqual([perReport, perReport]);
  // Filed under the session the first report was: the later ones name it.
  expect(sent.slice(1).every((s) => s.body.sessionId === 'ses_1')).toBe(true);
});

it('sends a sample that shows trouble at once, with those waiting before it', async () => {
  const start = Date.now();
  telemetry = new QualityTelemetry(sendingRoom(), 'token', 'room_1');
  await vi.advanceTimersByTimeAsync(QUALITY_SAMPLE_INTERVAL_MS * 2);
  expect(sent).toHaveLength(1); // the second sample waits for the next report
  lossFraction = 0.1;
  await vi.advanceTimersByTimeAsync(QUALITY_SAMPLE_INTERVAL_MS);
  expect(sent.map((s) => s.at - start)).toEqual([QUALITY_SAMPLE_INTERVAL_MS, QUALITY_SAMPLE_INTERVAL_MS * 3]);
  expect(sent[1].body.samples.map((s) => s.tracks[0].lossPct)).toEqual([0, 10]);
});

it('sends the first calm sample after trouble at once too (the live view sees the recovery)', async () => {
  const start = Date.now();
  telemetry = new QualityTelemetry(sendingRoom(), 'token', 'room_1');
  await vi.advanceTimersByTimeAsync(QUALITY_SAMPLE_INTERVAL_MS);
  lossFraction = 0.1;
  await vi.advanceTimersByTimeAsync(QUALITY_SAMPLE_INTERVAL_MS);
  lossFraction = 0;
  await vi.advanceTimersByTimeAsync(QUALITY_SAMPLE_INTERVAL_MS * 2);
  expect(sent.map((s) => s.at - start)).toEqual([1, 2, 3].map((n) => QUALITY_SAMPLE_INTERVAL_MS * n));
  expect(sent.map((s) => s.body.samples.map((x) => x.tracks[0].lossPct))).toEqual([[0], [10], [0]]);
});

it('sends what waits when the person leaves, and nothing after', async () => {
  const room = sendingRoom();
  telemetry = new QualityTelemetry(room, 'token', 'room_1');
  await vi.advanceTimersByTimeAsync(QUALITY_SAMPLE_INTERVAL_MS * 3);
  expect(sent).toHaveLength(1);
  room.emit(RoomEvent.Disconnected, DisconnectReason.CLIENT_INITIATED);
  await vi.advanceTimersByTimeAsync(0);
  expect(sent).toHaveLength(2);
  expect(sent[1].body.samples).toHaveLength(2);
  await vi.advanceTimersByTimeAsync(QUALITY_REPORT_INTERVAL_MS * 2);
  expect(sent).toHaveLength(2);
});

it('sends what waits when the page is closed mid-call', async () => {
  telemetry = new QualityTelemetry(sendingRoom(), 'token', 'room_1');
  await vi.advanceTimersByTimeAsync(QUALITY_SAMPLE_INTERVAL_MS * 2);
  expect(sent).toHaveLength(1);
  window.dispatchEvent(new Event('pagehide'));
  await vi.advanceTimersByTimeAsync(0);
  expect(sent.map((s) => s.body.samples.length)).toEqual([1, 1]);
});

it('sends nothing when the meeting was ended for everyone or they were removed, not even what waits', async () => {
  for (const reason of [DisconnectReason.ROOM_DELETED, DisconnectReason.PARTICIPANT_REMOVED]) {
    sent = [];
    const room = sendingRoom();
    telemetry = new QualityTelemetry(room, 'token', 'room_1');
    await vi.advanceTimersByTimeAsync(QUALITY_SAMPLE_INTERVAL_MS * 2);
    room.emit(RoomEvent.Disconnected, reason);
    await vi.advanceTimersByTimeAsync(QUALITY_REPORT_INTERVAL_MS * 2);
    expect(sent).toHaveLength(1);
  }
});

it('sends nothing once the call has ended, not even what waits', async () => {
  telemetry = new QualityTelemetry(sendingRoom(), 'token', 'room_1');
  await vi.advanceTimersByTimeAsync(QUALITY_SAMPLE_INTERVAL_MS * 2);
  expect(sent).toHaveLength(1);
  telemetry.stop();
  await vi.advanceTimersByTimeAsync(QUALITY_REPORT_INTERVAL_MS * 2);
  expect(sent).toHaveLength(1);
});
