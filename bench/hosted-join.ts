/**
 * Join latency as a participant meets it (`BENCH_PARTS=hosted-join`): the hosted call UI of the
 * production build on the development media server, two headless Chromium pages. Someone is in
 * the call; another person opens their join URL, waits on the pre-join screen and presses "Join
 * meeting", `joins` times one after another, each in a fresh browser context. Times run from that
 * press (a capture-phase click listener) to the first remote video frame decoded and the first
 * remote audio packet (the pages' own getStats; for the one already in, the first growth of a
 * receive stream's counters after the press), for the joiner and for the one already in; the
 * joiner's steps say where the time goes: the signaling answer, ICE and DTLS connected (its peer
 * connections' own events), the first remote video packet. The hosted UI takes LiveKit's v1
 * signaling path; bench/media.ts measures both paths from `room.connect()`.
 */
import type { Browser, Page } from '@playwright/test';
import { startDevMediaServer } from '../media-server';
import { launchChromiumWithFakeDevices } from '../test/support/livekit-page';

interface Inbound {
  kind: string;
  rtp?: number;
  decoded?: number;
  packets: number;
  frames: number;
}

interface Marks {
  click?: number;
  /** The entry check (GET /api/v1/me) after the press: sent and answered. */
  checkSent?: number;
  checkAnswered?: number;
  /** Camera and microphone asked of the browser after the press (getUserMedia): first asked, last granted. */
  devicesAsked?: number;
  devicesGranted?: number;
  /** The signaling WebSocket created (the call's code loaded and connecting). */
  socket?: number;
  signal?: number;
  ice?: number;
  dtls?: number;
  inbound: Record<string, Inbound>;
  /** Since benchArm(): when each stream's counters first grew past what they were then. */
  armed?: { base: Record<string, { packets: number; frames: number }>; after: Record<string, Inbound> };
}

/** Runs in each page before its scripts: notes the press, the signaling answer, ICE, DTLS and every inbound stream's firsts. */
function instrument() {
  const w = window as any;
  const marks: Marks = { inbound: {} };
  w.benchMarks = marks;
  document.addEventListener(
    'click',
    (e) => {
      const button = (e.target as Element | null)?.closest?.('button');
      if (button?.textContent?.trim() === 'Join meeting') marks.click ??= Date.now();
    },
    true,
  );
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries() as PerformanceResourceTiming[]) {
      if (!marks.click || !/\/api\/v1\/me$/.test(new URL(entry.name).pathname)) continue;
      const sent = performance.timeOrigin + entry.startTime;
      if (sent < marks.click || marks.checkSent) continue;
      marks.checkSent = Math.round(sent);
      marks.checkAnswered = Math.round(performance.timeOrigin + entry.responseEnd);
    }
  }).observe({ type: 'resource', buffered: true });
  const nativeGetUserMedia = navigator.mediaDevices.getUserMedia.bind(navigator.mediaDevices);
  navigator.mediaDevices.getUserMedia = async (constraints) => {
    const after = marks.click !== undefined;
    if (after) marks.devicesAsked ??= Date.now();
    const stream = await nativeGetUserMedia(constraints);
    if (after) marks.devicesGranted = Date.now();
    return stream;
  };
  const NativeSocket = window.WebSocket;
  w.WebSocket = function (url: string | URL, protocols?: string | string[]) {
    const socket = new NativeSocket(url, protocols);
    if (/\/rtc/.test(String(url))) {
      marks.socket ??= Date.now();
      socket.addEventListener('message', () => (marks.signal ??= Date.now()));
    }
    return socket;
  };
  w.WebSocket.prototype = NativeSocket.prototype;
  Object.assign(w.WebSocket, { CONNECTING: 0, OPEN: 1, CLOSING: 2, CLOSED: 3 });
  const NativePeer = window.RTCPeerConnection;
  const peers: RTCPeerConnection[] = [];
  w.RTCPeerConnection = function (...args: ConstructorParameters<typeof RTCPeerConnection>) {
    const pc = new NativePeer(...args);
    peers.push(pc);
    pc.addEventListener('iceconnectionstatechange', () => {
      if (['connected', 'completed'].includes(pc.iceConnectionState)) marks.ice ??= Date.now();
    });
    pc.addEventListener('connectionstatechange', () => {
      if (pc.connectionState === 'connected') marks.dtls ??= Date.now();
    });
    return pc;
  };
  w.RTCPeerConnection.prototype = NativePeer.prototype;
  // The one already in: a receive section is reused for the next joiner (same stream, same
  // counters), so a joiner's media shows as counters growing again after the press.
  w.benchArm = () => {
    const base: Record<string, { packets: number; frames: number }> = {};
    for (const [k, e] of Object.entries(marks.inbound)) base[k] = { packets: e.packets, frames: e.frames };
    marks.armed = { base, after: {} };
  };
  setInterval(async () => {
    for (const pc of peers) {
      if (pc.connectionState === 'closed') continue;
      const report = await pc.getStats();
      report.forEach((s: any) => {
        if (s.type !== 'inbound-rtp') return;
        const k = `${s.kind}:${s.ssrc}`;
        const entry = (marks.inbound[k] ??= { kind: s.kind, packets: 0, frames: 0 });
        entry.packets = s.packetsReceived ?? 0;
        entry.frames = s.framesDecoded ?? 0;
        if (entry.packets > 0) entry.rtp ??= Date.now();
        if (entry.frames > 0) entry.decoded ??= Date.now();
        if (marks.armed) {
          const base = marks.armed.base[k] ?? { packets: 0, frames: 0 };
          const after = (marks.armed.after[k] ??= { kind: s.kind, packets: 0, frames: 0 });
          if (entry.packets > base.packets) after.rtp ??= Date.now();
          if (entry.frames > base.frames) after.decoded ??= Date.now();
        }
      });
    }
  }, 15);
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
};

/** The earliest time among these inbound streams of `kind`. */
function firstOf(streams: Record<string, Inbound>, kind: 'audio' | 'video', what: 'rtp' | 'decoded') {
  const times = Object.values(streams)
    .filter((e) => e.kind === kind && e[what] !== undefined)
    .map((e) => e[what]!);
  return times.length ? Math.min(...times) : undefined;
}

async function openCall(browser: Browser, joinUrl: string) {
  const context = await browser.newContext({ permissions: ['camera', 'microphone'] });
  const page = await context.newPage();
  await page.addInitScript(instrument);
  await page.goto(joinUrl);
  const join = page.getByRole('button', { name: 'Join meeting' });
  await join.waitFor({ timeout: 30_000 });
  // On the pre-join screen as a person is: the camera preview running, two seconds to look at it.
  await page.locator('.lk-prejoin video').waitFor({ timeout: 30_000 });
  await page.waitForTimeout(2000);
  return { page, join };
}

const marksOf = (page: Page) => page.evaluate(() => (window as any).benchMarks as Marks);

export interface HostedJoinOptions {
  /** Starts the app (production build) with the media layer's environment added; its base URL. */
  startApp(env: Record<string, string>): Promise<{ base: string; stop(): Promise<void> }>;
  /** A tenant key of the app's database. */
  key: string;
  joins?: number;
}

export async function hostedJoinBench({
  startApp,
  key,
  joins = Number(process.env.BENCH_MEDIA_JOINS ?? 10),
}: HostedJoinOptions) {
  const media = await startDevMediaServer();
  const app = await startApp(media.env());
  media.setWebhookUrls([`${app.base}/api/media/webhook`]);
  const browser = await launchChromiumWithFakeDevices();
  const api = async (path: string, body: unknown) => {
    const res = await fetch(`${app.base}${path}`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (res.status >= 300) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    return res.json();
  };
  const samples = { joinerVideo: [], joinerAudio: [], presentVideo: [], presentAudio: [] } as Record<string, number[]>;
  const steps = {
    checkSent: [],
    checkAnswered: [],
    devicesAsked: [],
    devicesGranted: [],
    socket: [],
    signal: [],
    ice: [],
    dtls: [],
    rtp: [],
  } as Record<string, number[]>;
  try {
    const room = await api('/api/v1/rooms', { name: 'Join latency', createdByExternalId: 'bench' });
    const joinUrl = async (who: string) =>
      (await api(`/api/v1/rooms/${room.id}/join`, { externalUserId: who, displayName: who })).joinUrl as string;
    const present = await openCall(browser, await joinUrl('present'));
    await present.join.click();
    await present.page.locator('.lk-room-container').waitFor({ timeout: 30_000 });
    for (let i = 0; i < joins; i++) {
      const joiner = await openCall(browser, await joinUrl(`joiner-${i}`));
      await present.page.evaluate(() => (window as any).benchArm());
      await joiner.join.click();
      const deadline = Date.now() + 30_000;
      for (;;) {
        const [mine, theirs] = [await marksOf(joiner.page), await marksOf(present.page)];
        const t0 = mine.click!;
        const got = {
          joinerVideo: firstOf(mine.inbound, 'video', 'decoded'),
          joinerAudio: firstOf(mine.inbound, 'audio', 'rtp'),
          presentVideo: firstOf(theirs.armed?.after ?? {}, 'video', 'decoded'),
          presentAudio: firstOf(theirs.armed?.after ?? {}, 'audio', 'rtp'),
        };
        if (Object.values(got).every((t) => t !== undefined)) {
          for (const [name, at] of Object.entries(got)) samples[name].push(at! - t0);
          const rtp = firstOf(mine.inbound, 'video', 'rtp');
          for (const [name, at] of Object.entries({
            checkSent: mine.checkSent,
            checkAnswered: mine.checkAnswered,
            devicesAsked: mine.devicesAsked,
            devicesGranted: mine.devicesGranted,
            socket: mine.socket,
            signal: mine.signal,
            ice: mine.ice,
            dtls: mine.dtls,
            rtp,
          }))
            if (at !== undefined) steps[name].push(at - t0);
          break;
        }
        if (Date.now() > deadline) throw new Error(`hosted join ${i}: no media within 30 s (${JSON.stringify(got)})`);
        await new Promise((r) => setTimeout(r, 20));
      }
      await joiner.page.context().close();
      await new Promise((r) => setTimeout(r, 500));
    }
    await present.page.context().close();
  } finally {
    await browser.close();
    await app.stop();
    await media.close();
  }
  const ms = (values: number[]) => (values.length ? `${percentile(values, 50)} / ${percentile(values, 95)}` : '?');
  return {
    samples,
    markdown: [
      '## Joining in the hosted call UI (two headless Chromium pages, camera + microphone, v1 signaling)',
      '',
      `Milliseconds from pressing "Join meeting" (2 s after the pre-join preview started) to the first remote video frame decoded and the first remote audio packet, p50 / p95 over ${samples.joinerVideo.length} joins. Goal: p50 ≤ 500, p95 ≤ 1,000.`,
      '',
      '| joiner sees | joiner hears | already-in sees | already-in hears |',
      '|---|---|---|---|',
      `| ${ms(samples.joinerVideo)} | ${ms(samples.joinerAudio)} | ${ms(samples.presentVideo)} | ${ms(samples.presentAudio)} |`,
      '',
      "Where the joiner's time goes (ms from the press, p50 / p95):",
      '',
      '| entry check sent | entry check answered | devices asked | devices granted | signaling opened | signaling answer | ICE connected | DTLS connected | first remote video packet |',
      '|---|---|---|---|---|---|---|---|---|',
      `| ${ms(steps.checkSent)} | ${ms(steps.checkAnswered)} | ${ms(steps.devicesAsked)} | ${ms(steps.devicesGranted)} | ${ms(steps.socket)} | ${ms(steps.signal)} | ${ms(steps.ice)} | ${ms(steps.dtls)} | ${ms(steps.rtp)} |`,
      '',
    ].join('\n'),
  };
}
