/**
 * What a composite recording costs on the development media server: N headless Chromium pages
 * publish camera and microphone into one room, a room-composite egress records it (the default
 * preset, H.264 720p 30 fps + AAC, grid layout), and over the same length of time before and
 * during the recording we measure this process's CPU (the server, where frames are composed and
 * audio mixed) and the CPU of every ffmpeg it runs (a decoder per track, the encoder, the MP4
 * writer), read from /proc. Also runnable alone: `npx tsx bench/recording.ts`.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { EgressClient, EncodedFileOutput } from 'livekit-server-sdk';
import { startDevMediaServer } from '../media-server';
import { launchChromiumWithFakeDevices, publishingPage, serveLiveKitClientPage } from '../test/support/livekit-page';
import { probe } from '../test/support/media-probe';
import { isMain } from '../scripts/is-main';

export interface RecordingBenchRow {
  participants: number;
  /** This process (the server) without and with the recording, % of one core. */
  serverIdlePercent: number;
  serverRecordingPercent: number;
  /** All ffmpeg children together, % of one core. */
  ffmpegPercent: number;
  ffmpegProcesses: number;
  /** What the recording adds (server delta + ffmpeg), per participant. */
  perParticipantPercent: number;
  fileSeconds: number;
  fileKbps: number;
}

const TICKS_PER_SECOND = 100; // Linux USER_HZ

/** CPU seconds used so far by each running ffmpeg child of this process. */
function ffmpegCpu(): Map<number, number> {
  const usage = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (comm !== 'ffmpeg' || Number(fields[1]) !== process.pid) continue;
      usage.set(Number(entry), (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND);
    } catch {
      // exited meanwhile
    }
  }
  return usage;
}

const selfCpuSeconds = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};

export async function recordingBench(
  sizes = [1, 2, 4],
  seconds = Number(process.env.BENCH_RECORDING_SECONDS ?? 10),
): Promise<{ rows: RecordingBenchRow[]; markdown: string }> {
  const media = await startDevMediaServer();
  const egress = new EgressClient(media.httpUrl, media.apiKey, media.apiSecret);
  const page = await serveLiveKitClientPage();
  const browser = await launchChromiumWithFakeDevices();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'convene-bench-recording-'));
  const rows: RecordingBenchRow[] = [];
  const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));
  const until = async (fn: () => boolean, ms: number) => {
    const deadline = Date.now() + ms;
    while (!fn()) {
      if (Date.now() > deadline) throw new Error(`timed out: ${fn.toString()}`);
      await wait(100);
    }
  };
  try {
    for (const n of sizes) {
      const roomName = `bench-recording-${n}`;
      const pages: Page[] = [];
      for (let i = 0; i < n; i++) {
        pages.push(await publishingPage({ browser, pageUrl: page.url, media, room: roomName, identity: `p${i}` }));
      }
      await wait(3000);
      // The same room without a recording, for as long as the recording will be measured.
      let t0 = performance.now();
      let self0 = selfCpuSeconds();
      await wait(seconds * 1000);
      const serverIdlePercent = ((selfCpuSeconds() - self0) / ((performance.now() - t0) / 1000)) * 100;

      const filepath = path.join(dir, `room-${n}.mp4`);
      const started = await egress.startRoomCompositeEgress(roomName, { file: new EncodedFileOutput({ filepath }) });
      const status = () => media.egresses.get(started.egressId)?.status;
      await until(() => status() === 'EGRESS_ACTIVE', 30_000);
      await wait(1000);
      const before = ffmpegCpu();
      t0 = performance.now();
      self0 = selfCpuSeconds();
      await wait(seconds * 1000);
      const elapsed = (performance.now() - t0) / 1000;
      const serverRecordingPercent = ((selfCpuSeconds() - self0) / elapsed) * 100;
      const after = ffmpegCpu();
      const ffmpegSeconds = [...after].reduce((sum, [pid, cpu]) => sum + cpu - (before.get(pid) ?? 0), 0);
      const ffmpegPercent = (ffmpegSeconds / elapsed) * 100;
      await egress.stopEgress(started.egressId);
      await until(() => status() === 'EGRESS_COMPLETE' || status() === 'EGRESS_FAILED', 30_000);
      const file = probe(filepath);
      rows.push({
        participants: n,
        serverIdlePercent,
        serverRecordingPercent,
        ffmpegPercent,
        ffmpegProcesses: after.size,
        perParticipantPercent: (serverRecordingPercent - serverIdlePercent + ffmpegPercent) / n,
        fileSeconds: file.durationSeconds,
        fileKbps: file.durationSeconds ? (statSync(filepath).size * 8) / 1000 / file.durationSeconds : 0,
      });
      for (const p of pages) await p.close();
    }
  } finally {
    await browser.close();
    await media.close();
    await page.close();
    rmSync(dir, { recursive: true, force: true });
  }
  const f = (x: number) => x.toFixed(1);
  const markdown = [
    '## Composite recording on the development media server',
    '',
    `${os.cpus().length} cores, every participant a headless Chromium on the same cores; H.264 720p 30 fps + AAC, grid layout; ${seconds} s measured per row. CPU in % of one core.`,
    '',
    '| participants | server without recording | server recording | ffmpeg (processes) | recording per participant | file length | file kbit/s |',
    '|---:|---:|---:|---:|---:|---:|---:|',
    ...rows.map(
      (r) =>
        `| ${r.participants} | ${f(r.serverIdlePercent)} | ${f(r.serverRecordingPercent)} | ${f(r.ffmpegPercent)} (${r.ffmpegProcesses}) | ${f(r.perParticipantPercent)} | ${f(r.fileSeconds)} s | ${Math.round(r.fileKbps)} |`,
    ),
    '',
  ].join('\n');
  return { rows, markdown };
}

if (isMain(import.meta.filename)) {
  const { markdown } = await recordingBench();
  console.log(markdown);
}
