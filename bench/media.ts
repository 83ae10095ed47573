/**
 * The development media server under N real participants in one room: headless Chromium pages
 * running livekit-client publish camera and microphone and subscribe to everyone else. Measured
 * in this process (where the server runs): its CPU, RTP packets in and out per second, the time
 * spent handing a packet on, and event-loop delay — how long a packet can wait in this
 * one-threaded server before it is forwarded. Then the join latency on each signaling path
 * (joinLatencyBench). Also runnable alone: `npx tsx bench/media.ts` (`BENCH_MEDIA_PART=join` for
 * the join latency only).
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { Page } from '@playwright/test';
import { AccessToken } from 'livekit-server-sdk';
import { startDevMediaServer } from '../media-server';
import { launchChromiumWithFakeDevices, serveLiveKitClientPage } from '../test/support/livekit-page';
import { isMain } from '../scripts/is-main';
import { percentile } from './stats';

export interface MediaBenchRow {
  participants: number;
  cpuPercent: number;
  rtpInPerSec: number;
  rtpOutPerSec: number;
  forwardUsPerPacket: number;
  loopDelayP50Ms: number;
  loopDelayP99Ms: number;
  framesPerSecPerTile: number;
}

export async function mediaBench(
  sizes = [2, 4, 6],
  seconds = Number(process.env.BENCH_MEDIA_SECONDS ?? 10),
): Promise<{ rows: MediaBenchRow[]; joinLatency: JoinLatencyRow[]; markdown: string }> {
  const media = await startDevMediaServer();
  const page = await serveLiveKitClientPage();
  const pageUrl = page.url;
  const browser = await launchChromiumWithFakeDevices();
  const rows: MediaBenchRow[] = [];
  try {
    for (const n of sizes) {
      const roomName = `bench-${n}`;
      const pages: Page[] = [];
      for (let i = 0; i < n; i++) {
        const at = new AccessToken(media.apiKey, media.apiSecret, { identity: `p${i}` });
        at.addGrant({ roomJoin: true, room: roomName });
        const page = await browser.newPage();
        await page.goto(pageUrl);
        await page.evaluate(
          async ({ url, jwt }) => {
            const w = window as any;
            const room = new w.LivekitClient.Room();
            room.on('trackSubscribed', (track: any) => {
              const el = track.attach();
              el.dataset.kind = track.kind;
              document.body.appendChild(el);
            });
            await room.connect(url, jwt);
            await room.localParticipant.enableCameraAndMicrophone();
          },
          { url: media.url, jwt: await at.toJwt() },
        );
        pages.push(page);
      }
      const frames = async () =>
        (
          await Promise.all(
            pages.map((p) =>
              p.evaluate(() =>
                [...document.querySelectorAll<HTMLVideoElement>('video')].reduce(
                  (sum, v) => sum + v.getVideoPlaybackQuality().totalVideoFrames,
                  0,
                ),
              ),
            ),
          )
        ).reduce((a, b) => a + b, 0);
      await new Promise((r) => setTimeout(r, 5000)); // everyone subscribed and past the first key frames
      const loop = monitorEventLoopDelay({ resolution: 5 });
      loop.enable();
      const before = { stats: media.stats(), cpu: process.cpuUsage(), at: performance.now(), frames: await frames() };
      await new Promise((r) => setTimeout(r, seconds * 1000));
      const after = {
        stats: media.stats(),
        cpu: process.cpuUsage(before.cpu),
        at: performance.now(),
        frames: await frames(),
      };
      loop.disable();
      const elapsed = (after.at - before.at) / 1000;
      const out = after.stats.rtpOut - before.stats.rtpOut;
      rows.push({
        participants: n,
        cpuPercent: Math.round(((after.cpu.user + after.cpu.system) / 1000 / (elapsed * 1000)) * 100),
        rtpInPerSec: Math.round((after.stats.rtpIn - before.stats.rtpIn) / elapsed),
        rtpOutPerSec: Math.round(out / elapsed),
        forwardUsPerPacket: out ? Math.round(((after.stats.forwardMs - before.stats.forwardMs) * 1000) / out) : 0,
        loopDelayP50Ms: Math.round(loop.percentile(50) / 1e5) / 10,
        loopDelayP99Ms: Math.round(loop.percentile(99) / 1e5) / 10,
        framesPerSecPerTile: Math.round(((after.frames - before.frames) / elapsed / (n * (n - 1))) * 10) / 10,
      });
      for (const p of pages) await p.close();
      await new Promise((r) => setTimeout(r, 1000));
    }
  } finally {
    await browser.close();
    await media.close();
    await page.close();
  }
  const markdown = [
    '## Development media server: one room, N participants (headless Chromium, camera + microphone each)',
    '',
    "Measured in the server's process; the browsers share the same two cores, so the figures are an upper bound on what the server costs.",
    '',
    '| participants | server CPU (% of one core) | RTP in/s | RTP out/s | forward µs/packet | event-loop delay p50 / p99 (ms) | frames/s per remote tile |',
    '|---|---|---|---|---|---|---|',
    ...rows.map(
      (r) =>
        `| ${r.participants} | ${r.cpuPercent} | ${r.rtpInPerSec} | ${r.rtpOutPerSec} | ${r.forwardUsPerPacket} | ${r.loopDelayP50Ms} / ${r.loopDelayP99Ms} | ${r.framesPerSecPerTile} |`,
    ),
    '',
  ].join('\n');
  const joinLatency = await joinLatencyBench();
  return { rows, joinLatency: joinLatency.rows, markdown: `${markdown}\n${joinLatency.markdown}` };
}

export interface JoinLatencyRow {
  path: 'v1' | 'v0';
  joins: number;
  /** Milliseconds from the joiner's connect() to each first media, p50 and p95. */
  joinerVideo: [number, number];
  joinerAudio: [number, number];
  presentVideo: [number, number];
  presentAudio: [number, number];
  /** The joiner's steps, from its connect(): join response, ICE, DTLS, first remote video RTP, first decoded frame. */
  joinerSteps: Record<keyof ConnectionSteps, [number, number]>;
}

/** When each step of a join first happened in a page (ms since the epoch), recorded by recordConnectionSteps. */
interface ConnectionSteps {
  signal?: number;
  ice?: number;
  dtls?: number;
  rtp?: number;
  decoded?: number;
}

/**
 * Runs in the page before its scripts: wraps RTCPeerConnection to note the first ICE and DTLS
 * connection of any of the page's peer connections, and polls their stats for the first remote
 * video RTP packet and the first decoded frame.
 */
function recordConnectionSteps() {
  const w = window as any;
  const steps: ConnectionSteps = {};
  w.steps = steps;
  const Native = window.RTCPeerConnection;
  const pcs: RTCPeerConnection[] = [];
  w.RTCPeerConnection = function (this: unknown, ...args: ConstructorParameters<typeof RTCPeerConnection>) {
    const pc = new Native(...args);
    pcs.push(pc);
    pc.addEventListener('iceconnectionstatechange', () => {
      if (['connected', 'completed'].includes(pc.iceConnectionState)) steps.ice ??= Date.now();
    });
    pc.addEventListener('connectionstatechange', () => {
      if (pc.connectionState === 'connected') steps.dtls ??= Date.now();
    });
    return pc;
  };
  w.RTCPeerConnection.prototype = Native.prototype;
  const poll = setInterval(async () => {
    for (const pc of pcs) {
      const report = await pc.getStats();
      report.forEach((s: any) => {
        if (s.type !== 'inbound-rtp' || s.kind !== 'video') return;
        if (s.packetsReceived > 0) steps.rtp ??= Date.now();
        if (s.framesDecoded > 0) steps.decoded ??= Date.now();
      });
    }
    if (steps.decoded) clearInterval(poll);
  }, 10);
}

/**
 * Join latency on each signaling path: someone is in the room publishing camera and microphone,
 * and another person joins `joins` times, one after another. Times run from the joiner's
 * `room.connect()` (what the call UI's "Join meeting" calls, with camera and microphone on) to
 * the first remote video frame painted (requestVideoFrameCallback) and the first remote audio
 * packet received (the receiver's synchronization sources), for the joiner and for the one
 * already in. Browsers and server share the machine's cores.
 */
export async function joinLatencyBench(joins = Number(process.env.BENCH_MEDIA_JOINS ?? 10)) {
  const media = await startDevMediaServer();
  const served = await serveLiveKitClientPage();
  const browser = await launchChromiumWithFakeDevices();
  const rows: JoinLatencyRow[] = [];
  const open = async (room: string, identity: string, singlePeerConnection: boolean) => {
    const at = new AccessToken(media.apiKey, media.apiSecret, { identity });
    at.addGrant({ roomJoin: true, room });
    const page = await browser.newPage();
    await page.addInitScript(recordConnectionSteps);
    await page.goto(served.url);
    const startedAt = await page.evaluate(
      async ({ url, jwt, singlePeerConnection }) => {
        const w = window as any;
        w.firsts = {} as Record<string, number>;
        const room = new w.LivekitClient.Room({ singlePeerConnection });
        w.room = room;
        room.on('signalConnected', () => (w.steps.signal ??= Date.now()));
        room.on('trackSubscribed', (track: any, _pub: unknown, participant: any) => {
          const key = `${participant.identity}:${track.kind}`;
          const el = track.attach();
          document.body.appendChild(el);
          if (track.kind === 'video') el.requestVideoFrameCallback(() => (w.firsts[key] ??= Date.now()));
          else {
            // (no named function here: the bundler would wrap it in a helper the page lacks)
            const timer = setInterval(() => {
              if (!track.receiver?.getSynchronizationSources().length) return;
              w.firsts[key] ??= Date.now();
              clearInterval(timer);
            }, 5);
          }
        });
        const startedAt = Date.now();
        await room.connect(url, jwt);
        await room.localParticipant.enableCameraAndMicrophone();
        return startedAt;
      },
      { url: media.url, jwt: await at.toJwt(), singlePeerConnection },
    );
    return { page, startedAt };
  };
  const firsts = (page: Page) => page.evaluate(() => (window as any).firsts as Record<string, number>);
  const stepsOf = (page: Page) => page.evaluate(() => (window as any).steps as ConnectionSteps);
  try {
    for (const [path, single] of [
      ['v1', true],
      ['v0', false],
    ] as const) {
      const room = `join-latency-${path}`;
      const present = await open(room, 'present', single);
      const samples = {
        joinerVideo: [] as number[],
        joinerAudio: [] as number[],
        presentVideo: [] as number[],
        presentAudio: [] as number[],
      };
      const breakdown = {
        signal: [] as number[],
        ice: [] as number[],
        dtls: [] as number[],
        rtp: [] as number[],
        decoded: [] as number[],
      };
      for (let i = 0; i < joins; i++) {
        const joiner = await open(room, `joiner-${i}`, single);
        const deadline = Date.now() + 20_000;
        for (;;) {
          const [mine, theirs] = [await firsts(joiner.page), await firsts(present.page)];
          const got = [
            mine['present:video'],
            mine['present:audio'],
            theirs[`joiner-${i}:video`],
            theirs[`joiner-${i}:audio`],
          ];
          if (got.every((t) => t !== undefined)) {
            samples.joinerVideo.push(got[0] - joiner.startedAt);
            samples.joinerAudio.push(got[1] - joiner.startedAt);
            samples.presentVideo.push(got[2] - joiner.startedAt);
            samples.presentAudio.push(got[3] - joiner.startedAt);
            const steps = await stepsOf(joiner.page);
            for (const step of Object.keys(breakdown) as (keyof ConnectionSteps)[])
              if (steps[step] !== undefined) breakdown[step].push(steps[step] - joiner.startedAt);
            break;
          }
          if (Date.now() > deadline)
            throw new Error(`join ${i} on ${path}: no media within 20 s (${JSON.stringify(got)})`);
          await new Promise((r) => setTimeout(r, 20));
        }
        await joiner.page.close();
        await new Promise((r) => setTimeout(r, 300));
      }
      await present.page.close();
      const pair = (values: number[]): [number, number] => [percentile(values, 50), percentile(values, 95)];
      rows.push({
        path,
        joins,
        joinerVideo: pair(samples.joinerVideo),
        joinerAudio: pair(samples.joinerAudio),
        presentVideo: pair(samples.presentVideo),
        presentAudio: pair(samples.presentAudio),
        joinerSteps: {
          signal: pair(breakdown.signal),
          ice: pair(breakdown.ice),
          dtls: pair(breakdown.dtls),
          rtp: pair(breakdown.rtp),
          decoded: pair(breakdown.decoded),
        },
      });
    }
  } finally {
    await browser.close();
    await media.close();
    await served.close();
  }
  const ms = ([p50, p95]: [number, number]) => `${p50} / ${p95}`;
  const markdown = [
    '## Development media server: join latency (two headless Chromium pages, camera + microphone)',
    '',
    "Milliseconds from the joiner's `room.connect()` to the first remote video frame painted and the first remote audio packet, p50 / p95.",
    '',
    '| path | joins | joiner sees | joiner hears | already-in sees | already-in hears |',
    '|---|---|---|---|---|---|',
    ...rows.map(
      (r) =>
        `| ${r.path} | ${r.joins} | ${ms(r.joinerVideo)} | ${ms(r.joinerAudio)} | ${ms(r.presentVideo)} | ${ms(r.presentAudio)} |`,
    ),
    '',
    "Where the joiner's time goes (ms from its `room.connect()`, p50 / p95):",
    '',
    '| path | join response | ICE connected | DTLS connected | first remote video RTP | first decoded frame |',
    '|---|---|---|---|---|---|',
    ...rows.map(
      ({ path, joinerSteps: s }) =>
        `| ${path} | ${ms(s.signal)} | ${ms(s.ice)} | ${ms(s.dtls)} | ${ms(s.rtp)} | ${ms(s.decoded)} |`,
    ),
    '',
  ].join('\n');
  return { rows, markdown };
}

if (isMain(import.meta.filename)) {
  (process.env.BENCH_MEDIA_PART === 'join' ? joinLatencyBench() : mediaBench()).then(
    ({ markdown }) => {
      console.log(markdown);
      process.exit(0);
    },
    (err) => {
      console.error(err);
      process.exit(1);
    },
  );
}
