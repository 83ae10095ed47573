/**
 * The development media server under N real participants in one room: headless Chromium pages
 * running livekit-client publish camera and microphone and subscribe to everyone else. Measured
 * in this process (where the server runs): its CPU, RTP packets in and out per second, the time
 * spent handing a packet on, and event-loop delay — how long a packet can wait in this
 * one-threaded server before it is forwarded. Also runnable alone: `npx tsx bench/media.ts`.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { Page } from '@playwright/test';
import { AccessToken } from 'livekit-server-sdk';
import { startDevMediaServer } from '../lib/media/dev-server';
import { launchChromiumWithFakeDevices, serveLiveKitClientPage } from '../test/support/livekit-page';

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
): Promise<{ rows: MediaBenchRow[]; markdown: string }> {
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
  return { rows, markdown };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  mediaBench().then(
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
