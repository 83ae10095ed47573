/**
 * Egress on the development media server, driven as LiveKit egress is: livekit-server-sdk's
 * EgressClient starts and stops room-composite egresses of rooms where headless Chromium pages
 * (livekit-client, fake camera and microphone) publish over real WebRTC; the signed webhooks are
 * verified with the SDK's WebhookReceiver; the files and streams are decoded with ffmpeg, and the
 * RTMP destination is a real RTMP server (node-media-server).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from '@playwright/test';
import {
  EgressClient,
  EgressStatus,
  EncodedFileOutput,
  EncodingOptions,
  S3Upload,
  StreamOutput,
  StreamProtocol,
  type EgressInfo,
} from 'livekit-server-sdk';
import { StreamInfo_Status } from '@livekit/protocol';
import { startDevMediaServer, type DevMediaServer } from '@/media-server';
import { launchChromiumWithFakeDevices, publishingPage, serveLiveKitClientPage } from '../support/livekit-page';
import { colourAt, ffmpegBin, maxVolume, probe } from '../support/media-probe';
import { holds, until } from '../support/until';
import { livekitEvents, startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver';
import { freePort } from '../../e2e/support/app';

let media: DevMediaServer;
let egress: EgressClient;
let page: Awaited<ReturnType<typeof serveLiveKitClientPage>>;
let browser: Browser;
let receiver: WebhookReceiver;
/** The webhooks so far, each verified as Convene verifies them. */
let hooks: ReturnType<typeof livekitEvents>;
let dir: string;
const mediaLog: string[] = [];
/** Frames the composite dropped since `from` (in mediaLog) because its encoder was behind (a busy machine). */
const framesDropped = (from: number) =>
  mediaLog.slice(from).reduce((sum, line) => sum + Number(/(\d+) frames dropped/.exec(line)?.[1] ?? 0), 0);

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  media = await startDevMediaServer({ webhookUrls: [receiver.url], log: (line) => mediaLog.push(line) });
  hooks = livekitEvents(receiver.received, media);
  egress = new EgressClient(media.httpUrl, media.apiKey, media.apiSecret);
  page = await serveLiveKitClientPage();
  browser = await launchChromiumWithFakeDevices();
  dir = mkdtempSync(path.join(os.tmpdir(), 'convene-egress-'));
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await media?.close();
  await page?.close();
  await receiver?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** A page in the room publishing its fake camera and microphone, as the call UI's Room does. */
async function publisher(room: string, identity: string): Promise<Page> {
  const p = await publishingPage({ browser, pageUrl: page.url, media, room, identity });
  // Published means the server receives its media.
  await holds(
    `${identity}'s media at the server`,
    () => {
      const tracks = [...(media.rooms.get(room)?.participants.get(identity)?.tracks.values() ?? [])];
      return tracks.length === 2 && tracks.every((t) => t.media);
    },
    20_000,
  );
  return p;
}

/** The egress in the first webhook about `egressId` that `matches`, once one has come. */
const egressHook = (what: string, egressId: string, matches: (event: string, info: EgressInfo) => boolean) =>
  until(
    async () =>
      (await hooks()).find((h) => h.egressInfo?.egressId === egressId && matches(h.event, h.egressInfo))?.egressInfo,
    what,
    20_000,
  );
const hook = (egressId: string, event: string, status?: EgressStatus) =>
  egressHook(
    `${event}${status === undefined ? '' : ` ${EgressStatus[status]}`} for ${egressId}`,
    egressId,
    (e, info) => e === event && (status === undefined || info.status === status),
  );

describe('development media server egress', { timeout: 120_000 }, () => {
  it('records every participant into an MP4 (H.264 + AAC) at the requested size and rate; a late joiner appears', async () => {
    const ada = await publisher('r-grid', 'ada');
    const logFrom = mediaLog.length;
    const filepath = path.join(dir, 'grid.mp4');
    const requestedAt = Date.now();
    const started = await egress.startRoomCompositeEgress(
      'r-grid',
      { file: new EncodedFileOutput({ filepath }) },
      { layout: 'grid', encodingOptions: new EncodingOptions({ width: 640, height: 360, framerate: 15 }) },
    );
    await hook(started.egressId, 'egress_updated', EgressStatus.EGRESS_ACTIVE);
    const activeAt = Date.now();
    // Alone for five seconds, then Bob joins; his tile appears next to Ada's (tiles are grey until a
    // decoder has its first key frame: a second or two on a loaded machine).
    await new Promise((r) => setTimeout(r, 5000));
    const bob = await publisher('r-grid', 'bob');
    await new Promise((r) => setTimeout(r, 6000));
    await egress.stopEgress(started.egressId);
    const stoppedAt = Date.now();
    const ended = await hook(started.egressId, 'egress_ended');
    expect(ended.status, ended.error).toBe(EgressStatus.EGRESS_COMPLETE);

    const file = probe(filepath);
    expect(file).toMatchObject({
      format: 'mov',
      decodes: true,
      video: { codec: 'h264', width: 640, height: 360, fps: 15 },
      audio: { codec: 'aac', sampleRate: 48000 },
    });
    // The recording spans at least the time we saw it active (the webhook arrives late on a loaded
    // machine), less what an encoder starved for seconds on end had dropped (the server logs it),
    // and at most the time from the start request to the stop's answer.
    const activeSeconds = (stoppedAt - activeAt) / 1000;
    const requestedSeconds = (stoppedAt - requestedAt) / 1000;
    const droppedSeconds = framesDropped(logFrom) / 15;
    if (droppedSeconds) console.log(`the composite dropped ${droppedSeconds.toFixed(1)} s: the machine was too busy`);
    expect(file.durationSeconds).toBeGreaterThan(activeSeconds - droppedSeconds - 1);
    expect(file.durationSeconds).toBeLessThan(requestedSeconds + 1);
    expect(maxVolume(filepath)).toBeGreaterThan(-40); // the fake microphones' beeps
    const [result] = ended.fileResults;
    expect(Number(result.size)).toBe(statSync(filepath).size);
    expect(Math.abs(Number(result.duration) / 1e9 - file.durationSeconds)).toBeLessThan(1);

    // Early: Ada alone fills the frame. Late: two side-by-side 16:9 tiles, letter-boxed above and below.
    const green = ([, g]: [number, number, number]) => g;
    const early = colourAt(filepath, 4, [
      [0.5, 0.15],
      [0.2, 0.5],
    ]).map(green);
    expect(Math.min(...early)).toBeGreaterThan(60);
    const [left, right, band] = colourAt(filepath, file.durationSeconds - 1, [
      [0.15, 0.5],
      [0.65, 0.5],
      [0.25, 0.1],
    ]).map(green);
    expect(Math.min(left, right)).toBeGreaterThan(60);
    expect(band).toBeLessThan(20);
    await ada.close();
    await bob.close();
  });

  it("an encoder that falls behind still records what happens: a new picture each second, the call's length kept", async () => {
    const ada = await publisher('r-behind', 'ada');
    const logFrom = mediaLog.length;
    const filepath = path.join(dir, 'behind.mp4');
    const started = await egress.startRoomCompositeEgress(
      'r-behind',
      { file: new EncodedFileOutput({ filepath }) },
      { layout: 'grid', encodingOptions: new EncodingOptions({ width: 640, height: 360, framerate: 15 }) },
    );
    await hook(started.egressId, 'egress_updated', EgressStatus.EGRESS_ACTIVE);
    const activeAt = Date.now();
    await new Promise((r) => setTimeout(r, 2000));
    // The encoder stops taking frames (as on a machine too busy for it): this process's ffmpeg
    // reading raw 640×360 pictures. Once 4 s of pictures wait for it, Bob joins.
    const encoder = spawnSync('pgrep', ['-P', String(process.pid), '-f', 'rawvideo -pix_fmt yuv420p -s 640x360'], {
      encoding: 'utf8',
    }).stdout.trim();
    expect(encoder).toMatch(/^\d+$/);
    process.kill(Number(encoder), 'SIGSTOP');
    try {
      await new Promise((r) => setTimeout(r, 4500));
      const bob = await publisher('r-behind', 'bob');
      await new Promise((r) => setTimeout(r, 5000));
      await bob.close();
    } finally {
      process.kill(Number(encoder), 'SIGCONT');
    }
    const resumedAt = Date.now();
    await new Promise((r) => setTimeout(r, 1000));
    await egress.stopEgress(started.egressId);
    const ended = await hook(started.egressId, 'egress_ended');
    expect(ended.status, ended.error).toBe(EgressStatus.EGRESS_COMPLETE);
    expect(mediaLog.slice(logFrom).join('\n')).toMatch(/frames repeated a picture/);
    expect(framesDropped(logFrom)).toBe(0);
    // Just before the encoder went on (the file's time 0 is no later than ACTIVE was seen), while it
    // was behind: Bob's tile beside Ada's, letter-boxed, not Ada alone filling the frame from before he came.
    const [left, right, band] = colourAt(filepath, (resumedAt - activeAt) / 1000 - 1.2, [
      [0.15, 0.5],
      [0.65, 0.5],
      [0.25, 0.1],
    ]).map(([, g]) => g);
    expect(Math.min(left, right)).toBeGreaterThan(60);
    expect(band).toBeLessThan(20);
    expect(probe(filepath).durationSeconds).toBeGreaterThan((resumedAt - activeAt) / 1000);
    await ada.close();
  });

  it('records audio only into Ogg Opus, everyone mixed', async () => {
    const ada = await publisher('r-audio', 'ada');
    const filepath = path.join(dir, 'audio.ogg');
    const started = await egress.startRoomCompositeEgress(
      'r-audio',
      { file: new EncodedFileOutput({ filepath }) },
      { audioOnly: true },
    );
    await hook(started.egressId, 'egress_updated', EgressStatus.EGRESS_ACTIVE);
    await new Promise((r) => setTimeout(r, 3000));
    await egress.stopEgress(started.egressId);
    const ended = await hook(started.egressId, 'egress_ended');
    expect(ended.status, ended.error).toBe(EgressStatus.EGRESS_COMPLETE);
    const file = probe(filepath);
    expect(file).toMatchObject({ format: 'ogg', decodes: true, audio: { codec: 'opus', sampleRate: 48000 } });
    expect(file.video).toBeUndefined();
    expect(file.durationSeconds).toBeGreaterThan(2);
    expect(maxVolume(filepath)).toBeGreaterThan(-40);
    await ada.close();
  });

  it('streams the composite over RTMP; a destination that refuses fails alone, with the one reason for every unreachable destination', async () => {
    const rtmpPort = await freePort();
    const nmsDir = mkdtempSync(path.join(dir, 'nms-'));
    const nms: ChildProcess = spawn(
      process.execPath,
      [
        path.resolve('node_modules/node-media-server/bin/app.js'),
        '-b',
        '127.0.0.1',
        '--rtmp-port',
        String(rtmpPort),
      ].concat(['--http-port', String(await freePort()), '--data-path', nmsDir, '--no-admin']),
      { cwd: nmsDir, stdio: 'ignore' },
    );
    try {
      // Listening: a TCP connection to its RTMP port is accepted.
      await holds(
        'the RTMP server listening',
        () =>
          new Promise<boolean>((resolve) =>
            net
              .connect(rtmpPort, '127.0.0.1', function (this: net.Socket) {
                this.destroy();
                resolve(true);
              })
              .once('error', () => resolve(false)),
          ),
        15_000,
      );
      const ada = await publisher('r-live', 'ada');
      const closedPort = await freePort();
      const started = await egress.startRoomCompositeEgress(
        'r-live',
        {
          stream: new StreamOutput({
            protocol: StreamProtocol.RTMP,
            urls: [`rtmp://127.0.0.1:${rtmpPort}/live/secret-key`, `rtmp://127.0.0.1:${closedPort}/live/other-key`],
          }),
        },
        { encodingOptions: new EncodingOptions({ width: 640, height: 360, framerate: 15 }) },
      );
      // The refusing destination is reported failed while the other stays live.
      const updated = await egressHook(
        'egress_updated with a failed stream',
        started.egressId,
        (event, info) =>
          event === 'egress_updated' && info.streamResults.some((s) => s.status === StreamInfo_Status.FAILED),
      );
      expect(updated.status).toBe(EgressStatus.EGRESS_ACTIVE);
      const [live, refused] = updated.streamResults;
      expect(live).toMatchObject({ url: `rtmp://127.0.0.1:${rtmpPort}/live/{sk}`, status: StreamInfo_Status.ACTIVE });
      expect(refused.status).toBe(StreamInfo_Status.FAILED);
      expect(refused.error).toMatch(/refused/i);
      expect(refused.error).not.toContain('other-key'); // ffmpeg names the URL; the key is hidden

      // The RTMP server has a live H.264 + AAC stream: pull two seconds of it and decode them.
      const pulled = path.join(dir, 'pulled.flv');
      await holds(
        'two seconds pulled from the RTMP server',
        async () => {
          const pull = spawn(
            ffmpegBin,
            ['-loglevel', 'error', '-i', `rtmp://127.0.0.1:${rtmpPort}/live/secret-key`].concat([
              '-t',
              '2',
              '-c',
              'copy',
              '-y',
              pulled,
            ]),
          );
          const timer = setTimeout(() => pull.kill('SIGKILL'), 15_000);
          const code = await new Promise((resolve) => pull.once('exit', resolve));
          clearTimeout(timer);
          return code === 0 && statSync(pulled).size > 0;
        },
        30_000,
      );
      expect(probe(pulled)).toMatchObject({
        decodes: true,
        video: { codec: 'h264', width: 640, height: 360 },
        audio: { codec: 'aac' },
      });

      await egress.stopEgress(started.egressId);
      const ended = await hook(started.egressId, 'egress_ended');
      expect(ended.status, ended.error).toBe(EgressStatus.EGRESS_COMPLETE);
      expect(ended.streamResults.map((s) => StreamInfo_Status[s.status])).toEqual(['FINISHED', 'FAILED']);
      expect(Number(ended.streamResults[0].duration)).toBeGreaterThan(0);

      // A stream whose only destination refuses ends the egress FAILED, with the reason.
      const failing = await egress.startRoomCompositeEgress('r-live', {
        stream: new StreamOutput({ protocol: StreamProtocol.RTMP, urls: [`rtmp://127.0.0.1:${closedPort}/live/k`] }),
      });
      const failed = await hook(failing.egressId, 'egress_ended');
      expect(failed.status).toBe(EgressStatus.EGRESS_FAILED);
      expect(failed.error).toMatch(/refused/i);
      expect(failed.streamResults[0]).toMatchObject({
        status: StreamInfo_Status.FAILED,
        error: expect.stringMatching(/refused/i),
      });
      await ada.close();
    } finally {
      nms.kill('SIGKILL');
    }
  });

  it('ends what it cannot do EGRESS_FAILED with a reason: uploads, and nothing published', async () => {
    const upload = await egress.startRoomCompositeEgress('r-none', {
      file: new EncodedFileOutput({ filepath: 'x.mp4', output: { case: 's3', value: new S3Upload({ bucket: 'b' }) } }),
    });
    expect((await hook(upload.egressId, 'egress_ended')).error).toMatch(/s3 upload is not supported/);
    media.addParticipant('r-none', { identity: 'quiet' });
    const empty = await egress.startRoomCompositeEgress('r-none', {
      file: new EncodedFileOutput({ filepath: path.join(dir, 'none.mp4') }),
    });
    await egress.stopEgress(empty.egressId);
    const ended = await hook(empty.egressId, 'egress_ended');
    expect(ended).toMatchObject({
      status: EgressStatus.EGRESS_FAILED,
      error: 'nothing was published in the room to record',
    });
  });
});
