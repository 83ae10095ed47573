/**
 * Join latency as a participant meets it (`BENCH_PARTS=hosted-join`): the hosted call UI of the
 * production build on the development media server, two headless browser pages. Someone is in
 * the call; another person opens their join URL, waits on the pre-join screen and presses "Join
 * meeting", `joins` times one after another, each in a fresh browser context. Times run from that
 * press (a capture-phase click listener) to what the person meets: the first remote video frame
 * presented in a call tile's video element (requestVideoFrameCallback), and the remote audio's
 * element playing with its first packet come — for the one already in, in the elements made for
 * the joiner after the press. The pages' own getStats (first frame decoded, first audio packet)
 * are reported beside them, and the joiner's steps say where the time goes: the signaling answer,
 * ICE and DTLS connected (its peer connections' own events), the first remote video packet. The
 * media server runs in a process of its own, as under `npm start`. Both signaling paths with two
 * Chromium pages: v1, the one the hosted UI takes, and v0 on a media server without v1
 * (livekit-client falls back to it); bench/media.ts measures both from `room.connect()` too. And
 * Firefox beside Chromium on v1, each way round (the joiner in Firefox, then the one already in):
 * Debian's Firefox ESR over WebDriver BiDi (e2e/support/firefox.ts), one Firefox page at a time, so
 * it is always the tab in front (Firefox paints only that one).
 */
import { randomBytes } from 'node:crypto';
import type { Browser } from '@playwright/test';
import type { Browser as Firefox, Page as FirefoxPage } from 'puppeteer-core';
import { freePort } from '../e2e/support/app';
import { launchFirefox } from '../e2e/support/firefox';
import { SERVER_NODE_FLAGS } from '../scripts/server-flags';
import { launchChromiumWithFakeDevices } from '../test/support/livekit-page';
import { spawnMediaServer } from '../test/support/media-server-process';
import { type BenchContext, startAppServer, stopProcess } from './harness';
import { percentile } from './stats';

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
  /**
   * The call's room container in the page, after the press (LiveKitRoom commits it empty, then the
   * call inside it in a later task: the remote tile's time says when that one ended). Noted in the
   * task that adds it (the MutationObserver); the poll read it up to a long task late.
   */
  call?: number;
  inbound: Record<string, Inbound>;
  /** What a person meets, per media element: a remote video's first frame presented in a call tile; a remote audio element playing. */
  shown: Shown[];
  playing: { hookedAt: number; at: number }[];
  /** How a frame counts as presented: requestVideoFrameCallback, or (Firefox before 132, which lacks it) a painted frame seen at a poll. */
  frameClock?: 'requestVideoFrameCallback' | 'mozPaintedFrames';
  /** When benchArm() was called (the one already in: the next joiner's tiles and audio are new elements). */
  armedAt?: number;
  /** Since benchArm(): when each stream's counters first grew past what they were then. */
  armed?: { base: Record<string, { packets: number; frames: number }>; after: Record<string, Inbound> };
}

/** A remote video element: when the page first had it, when a video track was set on it, and its first frame presented. */
interface Shown {
  hookedAt: number;
  /** When the page's frame callback ran (`at` is the frame's presentation time, which may be earlier). */
  calledAt: number;
  attachedAt?: number;
  at: number;
}

/** Runs in each page before its scripts: notes the press, the signaling answer, ICE, DTLS and every inbound stream's firsts. */
function instrument() {
  const w = window as any;
  // tsx names arrow functions through a helper of its own, absent from the page this runs in.
  w.__name ??= (f: unknown) => f;
  const marks: Marks = { inbound: {}, shown: [], playing: [] };
  // Per media element (a reused receive section keeps its track, a new tile makes a new element).
  const hooked = new WeakMap<HTMLMediaElement, { hookedAt: number; at?: number }>();
  const isRemote = (el: HTMLMediaElement, kind: 'audio' | 'video') => {
    const stream = el.srcObject as MediaStream | null;
    const track = kind === 'video' ? stream?.getVideoTracks()[0] : stream?.getAudioTracks()[0];
    if (!track || track.readyState !== 'live') return false;
    // Audio elements are made for remote tracks only; a video's tile says whose it is.
    return (
      kind === 'audio' ||
      el.closest('[data-lk-local-participant]')?.getAttribute('data-lk-local-participant') === 'false'
    );
  };
  const frameCallbacks = 'requestVideoFrameCallback' in HTMLVideoElement.prototype;
  // When a video track is first set on each element (livekit-client's attach sets srcObject).
  const attached = new WeakMap<HTMLMediaElement, number>();
  // An element is watched from the moment the page has it (a MutationObserver, in the same task as
  // the DOM change) or a track is set on it, whichever is first: a watcher started later (this
  // page's poll, behind a busy thread) missed the frames presented before it and counted the next.
  const hook = (el: HTMLMediaElement) => {
    if (hooked.has(el)) return hooked.get(el)!;
    const entry: { hookedAt: number; at?: number } = { hookedAt: Date.now() };
    hooked.set(el, entry);
    if (el instanceof HTMLVideoElement && frameCallbacks) {
      const onFrame = (_now: number, frame: VideoFrameCallbackMetadata) => {
        if (entry.at === undefined && isRemote(el, 'video')) {
          // When the frame went to the screen (its presentation time), not when this callback got
          // its turn on the page's thread; both are kept.
          const calledAt = Date.now();
          entry.at = Math.min(calledAt, Math.round(performance.timeOrigin + frame.presentationTime));
          marks.shown.push({ ...(entry as Shown), attachedAt: attached.get(el), calledAt });
        }
        el.requestVideoFrameCallback(onFrame);
      };
      el.requestVideoFrameCallback(onFrame);
    }
    if (el instanceof HTMLAudioElement)
      el.addEventListener('playing', (e) => {
        if (entry.at !== undefined || !isRemote(el, 'audio') || el.readyState < 2) return;
        entry.at = Math.round(performance.timeOrigin + e.timeStamp);
        marks.playing.push(entry as { hookedAt: number; at: number });
      });
    return entry;
  };
  new MutationObserver((records) => {
    if (marks.click !== undefined && marks.call === undefined && document.querySelector('.lk-room-container'))
      marks.call = Date.now();
    for (const record of records)
      for (const node of record.addedNodes) {
        if (node instanceof HTMLMediaElement) hook(node);
        else if (node instanceof Element)
          for (const el of node.querySelectorAll('video, audio')) hook(el as HTMLMediaElement);
      }
  }).observe(document, { childList: true, subtree: true });
  const srcObject = Object.getOwnPropertyDescriptor(HTMLMediaElement.prototype, 'srcObject')!;
  Object.defineProperty(HTMLMediaElement.prototype, 'srcObject', {
    ...srcObject,
    set(this: HTMLMediaElement, stream: MediaStream | null) {
      if (stream?.getVideoTracks().length && !attached.has(this)) attached.set(this, Date.now());
      hook(this);
      srcObject.set!.call(this, stream);
    },
  });
  // At each poll: any element the above did not see, Firefox before 132's painted frames, and an
  // audio element already playing when its remote track came.
  const watchMediaElements = () => {
    for (const video of document.querySelectorAll('video')) {
      const entry = hook(video);
      // Without frame callbacks: Firefox's count of a MediaStream video's painted frames (its
      // getVideoPlaybackQuality stays at 0), read at this poll.
      const painted = (video as HTMLVideoElement & { mozPaintedFrames?: number }).mozPaintedFrames ?? 0;
      if (!frameCallbacks && entry.at === undefined && painted > 0 && isRemote(video, 'video')) {
        entry.at = Date.now();
        marks.shown.push({ ...(entry as Shown), attachedAt: attached.get(video), calledAt: entry.at });
      }
    }
    for (const audio of document.querySelectorAll('audio')) {
      const entry = hook(audio);
      if (entry.at === undefined && isRemote(audio, 'audio') && !audio.paused && audio.readyState >= 2) {
        entry.at = Date.now();
        marks.playing.push(entry as { hookedAt: number; at: number });
      }
    }
  };
  marks.frameClock = frameCallbacks ? 'requestVideoFrameCallback' : 'mozPaintedFrames';
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
    marks.armedAt = Date.now();
  };
  setInterval(async () => {
    watchMediaElements();
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

/** The earliest of these elements' firsts, among elements that appeared at or after `since`. */
function firstNew(elements: { hookedAt: number; at: number }[], since = 0) {
  const left = elements.filter((e) => e.hookedAt >= since);
  return left.length ? Math.min(...left.map((e) => e.at)) : undefined;
}

/** The remote video element whose first frame was presented first (its hookedAt: when the page first had it). */
function firstShownElement(elements: Shown[]) {
  return elements.reduce<Shown | undefined>((a, e) => (!a || e.at < a.at ? e : a), undefined);
}

/** The earliest time among these inbound streams of `kind`. */
function firstOf(streams: Record<string, Inbound>, kind: 'audio' | 'video', what: 'rtp' | 'decoded') {
  const times = Object.values(streams)
    .filter((e) => e.kind === kind && e[what] !== undefined)
    .map((e) => e[what]!);
  return times.length ? Math.min(...times) : undefined;
}

type Engine = 'chromium' | 'firefox';

/** A person's call page, in either engine: what the bench reads off it and does in it. */
interface CallPage {
  marks(): Promise<Marks>;
  /** Notes the counters now (the one already in, before the next joiner presses). */
  arm(): Promise<void>;
  pressJoin(): Promise<void>;
  inCall(): Promise<void>;
  close(): Promise<void>;
}

/** Both engines' browsers, each launched when a run first needs it. */
class Browsers {
  private chromium?: Promise<Browser>;
  private firefox?: Promise<Firefox>;

  /** On the pre-join screen as a person is: the camera preview running, two seconds to look at it. */
  async open(engine: Engine, joinUrl: string): Promise<CallPage> {
    if (engine === 'firefox') {
      this.firefox ??= launchFirefox();
      return openInFirefox(await this.firefox, joinUrl);
    }
    this.chromium ??= launchChromiumWithFakeDevices();
    return openInChromium(await this.chromium, joinUrl);
  }

  /** The Firefox this run used (its name and version), if any. */
  async firefoxVersion() {
    return this.firefox && (await this.firefox).version();
  }

  async close() {
    await Promise.all([this.chromium?.then((b) => b.close()), this.firefox?.then((b) => b.close())]);
  }
}

async function openInChromium(browser: Browser, joinUrl: string): Promise<CallPage> {
  const context = await browser.newContext({ permissions: ['camera', 'microphone'] });
  const page = await context.newPage();
  await page.addInitScript(instrument);
  await page.goto(joinUrl);
  const join = page.getByRole('button', { name: 'Join meeting' });
  await join.waitFor({ timeout: 30_000 });
  await page.locator('.lk-prejoin video').waitFor({ timeout: 30_000 });
  await page.waitForTimeout(2000);
  return {
    marks: () => page.evaluate(() => (window as any).benchMarks as Marks),
    arm: () => page.evaluate(() => (window as any).benchArm()),
    pressJoin: () => join.click(),
    inCall: () => page.locator('.lk-room-container').waitFor({ timeout: 30_000 }),
    close: () => context.close(),
  };
}

async function openInFirefox(firefox: Firefox, joinUrl: string): Promise<CallPage> {
  // A browsing context of its own per person (own storage, own devices), as in the e2e suite.
  const context = await firefox.createBrowserContext();
  const page: FirefoxPage = await context.newPage();
  await page.evaluateOnNewDocument(instrument);
  await page.goto(joinUrl);
  const join = '::-p-aria([name="Join meeting"][role="button"])';
  await page.waitForSelector(join, { timeout: 30_000 });
  await page.waitForSelector('.lk-prejoin video', { timeout: 30_000 });
  await page.bringToFront();
  await new Promise((r) => setTimeout(r, 2000));
  return {
    marks: () => page.evaluate(() => (window as any).benchMarks as Marks),
    arm: () => page.evaluate(() => (window as any).benchArm()),
    pressJoin: () => page.click(join),
    inCall: async () => {
      await page.waitForSelector('.lk-room-container', { timeout: 30_000 });
    },
    close: () => context.close(),
  };
}

/**
 * `joins` joins on one signaling path (the media server with v1, or without it: the hosted UI then
 * takes v0), the one already in and each joiner in the engines `engines` names.
 */
async function joinsOn({
  app,
  key,
  port,
  mediaEnv,
  v1,
  engines,
  joins,
}: {
  app: { base: string };
  key: string;
  port: number;
  mediaEnv: { LIVEKIT_API_KEY: string; LIVEKIT_API_SECRET: string };
  v1: boolean;
  engines: { present: Engine; joiner: Engine };
  joins: number;
}) {
  // In a process of its own, as `npm start` runs it beside the app: in the runner's process its
  // event loop would share time with the runner's polling of both pages.
  const media = await spawnMediaServer({
    apiKey: mediaEnv.LIVEKIT_API_KEY,
    apiSecret: mediaEnv.LIVEKIT_API_SECRET,
    port,
    webhookUrls: [`${app.base}/api/media/webhook`],
    v1,
  });
  const browsers = new Browsers();
  const frameClocks = new Set<string>();
  /** Per join: how long after the joiner's first remote frame was presented its page's frame callback ran. */
  const callbackLag: number[] = [];
  let firefox: string | undefined;
  const api = async (path: string, body: unknown) => {
    const res = await fetch(`${app.base}${path}`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (res.status >= 300) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    return res.json();
  };
  const samples = {
    joinerVideo: [],
    joinerAudio: [],
    presentVideo: [],
    presentAudio: [],
    joinerDecoded: [],
    joinerPacket: [],
    presentDecoded: [],
    presentPacket: [],
  } as Record<string, number[]>;
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
    call: [],
    tile: [],
    attached: [],
  } as Record<string, number[]>;
  try {
    const room = await api('/api/v1/rooms', { name: 'Join latency', createdByExternalId: 'bench' });
    const joinUrl = async (who: string) =>
      (await api(`/api/v1/rooms/${room.id}/join`, { externalUserId: who, displayName: who })).joinUrl as string;
    const present = await browsers.open(engines.present, await joinUrl('present'));
    await present.pressJoin();
    await present.inCall();
    for (let i = 0; i < joins; i++) {
      const joiner = await browsers.open(engines.joiner, await joinUrl(`joiner-${i}`));
      await present.arm();
      await joiner.pressJoin();
      const deadline = Date.now() + 30_000;
      for (;;) {
        const [mine, theirs] = [await joiner.marks(), await present.marks()];
        const t0 = mine.click!;
        const media = {
          joinerDecoded: firstOf(mine.inbound, 'video', 'decoded'),
          joinerPacket: firstOf(mine.inbound, 'audio', 'rtp'),
          presentDecoded: firstOf(theirs.armed?.after ?? {}, 'video', 'decoded'),
          presentPacket: firstOf(theirs.armed?.after ?? {}, 'audio', 'rtp'),
        };
        // Heard: the remote audio's element is playing and its packets have come (an element plays
        // silence before them).
        const later = (a?: number, b?: number) => (a === undefined || b === undefined ? undefined : Math.max(a, b));
        const got = {
          joinerVideo: firstNew(mine.shown),
          joinerAudio: later(firstNew(mine.playing), media.joinerPacket),
          presentVideo: theirs.armedAt === undefined ? undefined : firstNew(theirs.shown, theirs.armedAt),
          presentAudio:
            theirs.armedAt === undefined
              ? undefined
              : later(firstNew(theirs.playing, theirs.armedAt), media.presentPacket),
          ...media,
        };
        if (Object.values(got).every((t) => t !== undefined)) {
          for (const clock of [mine.frameClock, theirs.frameClock]) if (clock) frameClocks.add(clock);
          for (const [name, at] of Object.entries(got)) samples[name].push(at! - t0);
          const first = firstShownElement(mine.shown);
          if (first) callbackLag.push(first.calledAt - first.at);
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
            call: mine.call,
            tile: first?.hookedAt,
            attached: first?.attachedAt,
          }))
            if (at !== undefined) steps[name].push(at - t0);
          break;
        }
        if (Date.now() > deadline) throw new Error(`hosted join ${i}: no media within 30 s (${JSON.stringify(got)})`);
        // The times are noted in the pages; reading them costs each page's main thread a
        // serialization (at every 20 ms, 4 % of the joiner's during a profiled join), so rarely.
        await new Promise((r) => setTimeout(r, 50));
      }
      await joiner.close();
      await new Promise((r) => setTimeout(r, 500));
    }
    await present.close();
    firefox = await browsers.firefoxVersion();
  } finally {
    await browsers.close();
    await media.stop();
  }
  return { samples, steps, callbackLag, frameClocks: [...frameClocks], firefox };
}

/**
 * A second server on the bench's build and database, with the development media server as its
 * media layer, run as `npm start` runs it (its Node flags).
 */
async function startCallApp(ctx: BenchContext, mediaEnv: Record<string, string>) {
  const callPort = await freePort();
  const base = `http://127.0.0.1:${callPort}`;
  const child = await startAppServer(
    callPort,
    { ...ctx.serverEnv, ...mediaEnv, PUBLIC_BASE_URL: base, NEXTAUTH_URL: base },
    SERVER_NODE_FLAGS,
  );
  return { base, stop: () => stopProcess(child) };
}

/**
 * The runs, in order: who is already in and who joins, on which signaling path. Firefox joins as
 * well as being joined (its own receive path, then its own send path first to a Chromium already in).
 */
const RUNS: { name: string; v1: boolean; engines: { present: Engine; joiner: Engine } }[] = [
  { name: 'v1, Chromium ↔ Chromium', v1: true, engines: { present: 'chromium', joiner: 'chromium' } },
  { name: 'v1, Firefox joins Chromium', v1: true, engines: { present: 'chromium', joiner: 'firefox' } },
  { name: 'v1, Chromium joins Firefox', v1: true, engines: { present: 'firefox', joiner: 'chromium' } },
  { name: 'v0, Chromium ↔ Chromium', v1: false, engines: { present: 'chromium', joiner: 'chromium' } },
];

export async function hostedJoinBench(ctx: BenchContext, joins = Number(process.env.BENCH_MEDIA_JOINS ?? 10)) {
  const { key } = ctx;
  const port = await freePort();
  const mediaEnv = {
    LIVEKIT_URL: `ws://127.0.0.1:${port}`,
    LIVEKIT_API_KEY: `bench_${randomBytes(4).toString('hex')}`,
    LIVEKIT_API_SECRET: randomBytes(32).toString('hex'),
  };
  // BENCH_HOSTED_JOIN_ONLY: a regular expression over the runs' names, e.g. "Firefox".
  const only = process.env.BENCH_HOSTED_JOIN_ONLY ? new RegExp(process.env.BENCH_HOSTED_JOIN_ONLY) : undefined;
  const app = await startCallApp(ctx, mediaEnv);
  try {
    const runs: RunResult[] = [];
    for (const run of RUNS.filter((r) => !only || only.test(r.name)))
      runs.push({ name: run.name, ...(await joinsOn({ app, key, port, mediaEnv, ...run, joins })) });
    return { runs, markdown: report(runs) };
  } finally {
    app.stop();
  }
}

const ms = (values: number[]) => (values.length ? `${percentile(values, 50)} / ${percentile(values, 95)}` : '?');

type RunResult = Awaited<ReturnType<typeof joinsOn>> & { name: string };

/** Whether the run meets the goal in all four (p50 ≤ 500 ms, p95 ≤ 1,000 ms), with its worst p50 and p95. */
function goal({ samples: s }: RunResult) {
  const met = [s.joinerVideo, s.joinerAudio, s.presentVideo, s.presentAudio];
  const p50 = Math.max(...met.map((v) => percentile(v, 50)));
  const p95 = Math.max(...met.map((v) => percentile(v, 95)));
  return `${p50 <= 500 && p95 <= 1000 ? 'met' : 'not met'} (worst p50 ${p50}, worst p95 ${p95})`;
}

function report(runs: RunResult[]) {
  const rows = (cells: (r: RunResult) => number[][]) =>
    runs.map((r) => `| ${r.name} | ${cells(r).map(ms).join(' | ')} |`);
  return [
    '## Joining in the hosted call UI (headless Chromium and Firefox pages, camera + microphone)',
    '',
    `Milliseconds from pressing "Join meeting" (2 s after the pre-join preview started) to the first remote video frame shown in a call tile (a frame presented in the remote tile's video element) and the remote audio playing (its audio element playing, and its first packet come), p50 / p95 over ${runs[0]?.samples.joinerVideo.length ?? 0} joins in each run. Goal: p50 ≤ 500, p95 ≤ 1,000. v1 is the path the hosted UI takes; v0 is measured on a media server without v1 (as LiveKit before it), where livekit-client first tries v1, asks /rtc/v1/validate why it failed, and takes v0. Firefox: ${runs.find((r) => r.firefox)?.firefox ?? 'not in these runs'}; a frame counts as presented by ${[...new Set(runs.flatMap((r) => r.frameClocks))].join(' and ') || '?'}, at its presentation time; the page's callback for the joiner's first frame ran p50 / p95 ${runs.map((r) => `${ms(r.callbackLag)} ms later (${r.name})`).join(', ')}. Media elements are watched from the moment the page has them (a MutationObserver) and the audio's from its \`playing\` event.`,
    '',
    '| run | joiner sees | joiner hears | already-in sees | already-in hears |',
    '|---|---|---|---|---|',
    ...rows(({ samples: s }) => [s.joinerVideo, s.joinerAudio, s.presentVideo, s.presentAudio]),
    '',
    '| run | goal (all four) |',
    '|---|---|',
    ...runs.map((r) => `| ${r.name} | ${goal(r)} |`),
    '',
    "The same joins by the pages' media statistics (first remote video frame decoded, first remote audio packet), before the call shows or plays them:",
    '',
    '| run | joiner decoded | joiner first audio packet | already-in decoded | already-in first audio packet |',
    '|---|---|---|---|---|',
    ...rows(({ samples: s }) => [s.joinerDecoded, s.joinerPacket, s.presentDecoded, s.presentPacket]),
    '',
    "Where the joiner's time goes (ms from the press, p50 / p95; ? where no join had the step: the call takes the pre-join's camera and microphone over, so it asks for devices after the press only if the pre-join had none):",
    '',
    '| run | entry check sent | entry check answered | devices asked | devices granted | signaling opened | signaling answer | ICE connected | DTLS connected | first remote video packet | room container in the page | remote tile made | remote track attached to it |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|---|',
    ...rows(({ steps: t }) => [
      t.checkSent,
      t.checkAnswered,
      t.devicesAsked,
      t.devicesGranted,
      t.socket,
      t.signal,
      t.ice,
      t.dtls,
      t.rtp,
      t.call,
      t.tile,
      t.attached,
    ]),
    '',
  ].join('\n');
}
