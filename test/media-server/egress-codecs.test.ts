/**
 * A recording composes whatever codec each participant publishes: four @livekit/rtc-node
 * participants publish a camera each in VP8, H.264, VP9 and AV1 (simulcast off), each a picture of
 * its own colour; livekit-server-sdk records the room into an MP4, which ffmpeg decodes with every
 * colour in a tile of its own.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  LocalVideoTrack,
  Room,
  TrackPublishOptions,
  TrackSource,
  VideoBufferType,
  VideoCodec,
  VideoFrame,
  VideoSource,
} from '@livekit/rtc-node';
import { EgressClient, EgressStatus, EncodedFileOutput, EncodingOptions } from 'livekit-server-sdk';
import { startDevMediaServer, type DevMediaServer } from '@/media-server';
import { launchChromiumWithFakeDevices, serveLiveKitClientPage } from '../support/livekit-page';
import { colourAt, probe } from '../support/media-probe';
import { mediaToken } from '../support/rtc-node-media';
import { cleanUpWithin, holds, until } from '../support/until';

const ROOM = 'egress-codecs';
const [WIDTH, HEIGHT] = [320, 240];

let media: DevMediaServer;
let dir: string;

beforeAll(async () => {
  media = await startDevMediaServer({ log: (m: string) => process.stderr.write('[MS] ' + m + '\n') });
  dir = mkdtempSync(path.join(os.tmpdir(), 'convene-egress-codecs-'));
});

afterAll(async () => {
  await media?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

type Rgb = [number, number, number];

/** An rtc-node participant publishing a camera in `codec`: a picture of one colour, 25 frames/s. */
async function colouredCamera(identity: string, codec: VideoCodec, [r, g, b]: Rgb) {
  const room = new Room();
  await room.connect(media.url, await mediaToken(media, ROOM, identity), { autoSubscribe: false, dynacast: false });
  const source = new VideoSource(WIDTH, HEIGHT);
  const picture = new Uint8Array(WIDTH * HEIGHT * 4);
  for (let i = 0; i < picture.length; i += 4) picture.set([r, g, b, 255], i);
  const timer = setInterval(
    () => source.captureFrame(new VideoFrame(picture, WIDTH, HEIGHT, VideoBufferType.RGBA)),
    40,
  );
  await room.localParticipant!.publishTrack(
    LocalVideoTrack.createVideoTrack('camera', source),
    new TrackPublishOptions({ source: TrackSource.SOURCE_CAMERA, videoCodec: codec, simulcast: false }),
  );
  return {
    leave: () =>
      cleanUpWithin(`${identity} leaving`, async () => {
        clearInterval(timer);
        await room.disconnect();
      }),
  };
}

const distance = (a: Rgb, b: Rgb) => Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);

describe('recording a room of mixed codecs', { timeout: 120_000 }, () => {
  it('decodes every codec into the composite: VP8, H.264, VP9 and AV1 tiles each visible', async () => {
    const publishers: Record<string, { codec: VideoCodec; mimeType: string; colour: Rgb }> = {
      vp8: { codec: VideoCodec.VP8, mimeType: 'video/VP8', colour: [230, 30, 30] },
      h264: { codec: VideoCodec.H264, mimeType: 'video/H264', colour: [30, 30, 230] },
      vp9: { codec: VideoCodec.VP9, mimeType: 'video/VP9', colour: [30, 220, 30] },
      av1: { codec: VideoCodec.AV1, mimeType: 'video/AV1', colour: [230, 230, 230] },
    };
    const people = [];
    for (const [identity, { codec, colour }] of Object.entries(publishers))
      people.push(await colouredCamera(identity, codec, colour));
    try {
      // Each is published in the codec it asked for, and its media arrives.
      await holds('every camera at the server, in its codec', () =>
        Object.entries(publishers).every(([identity, { mimeType }]) => {
          const [track] = media.rooms.get(ROOM)?.participants.get(identity)?.tracks.values() ?? [];
          return !!track?.media && track.mimeType === mimeType;
        }),
      );
      const egress = new EgressClient(media.httpUrl, media.apiKey, media.apiSecret);
      const filepath = path.join(dir, 'codecs.mp4');
      const started = await egress.startRoomCompositeEgress(
        ROOM,
        { file: new EncodedFileOutput({ filepath }) },
        { layout: 'grid', encodingOptions: new EncodingOptions({ width: 640, height: 360, framerate: 15 }) },
      );
      // Long enough for every decoder's first key frame, on a loaded machine too.
      await new Promise((r) => setTimeout(r, 8000));
      await egress.stopEgress(started.egressId);
      const ended = await until(async () => {
        const [info] = await egress.listEgress({ egressId: started.egressId });
        return info && info.status >= EgressStatus.EGRESS_COMPLETE ? info : undefined;
      }, 'the recording to end');
      expect(ended.status, ended.error).toBe(EgressStatus.EGRESS_COMPLETE);

      const file = probe(filepath);
      expect(file).toMatchObject({ decodes: true, video: { codec: 'h264', width: 640, height: 360 } });
      // The grid's four cells, at their centres near the end: each publisher's colour in one of them.
      const cells = colourAt(filepath, file.durationSeconds - 1, [
        [0.25, 0.25],
        [0.75, 0.25],
        [0.25, 0.75],
        [0.75, 0.75],
      ]);
      for (const [identity, { colour }] of Object.entries(publishers))
        expect(
          cells.some((cell) => distance(cell, colour) < 80),
          `${identity}'s ${colour} in one of ${JSON.stringify(cells)}`,
        ).toBe(true);
    } finally {
      for (const person of people) await person.leave();
    }
  });

  it("decodes livekit-client's VP9 (SVC, three spatial layers in one stream) and H.264 into the composite", async () => {
    const served = await serveLiveKitClientPage();
    const browser = await launchChromiumWithFakeDevices();
    const room = `${ROOM}-browsers`;
    try {
      for (const videoCodec of ['vp9', 'h264']) {
        const page = await browser.newPage();
        await page.goto(served.url);
        await page.evaluate(
          async ({ url, jwt, videoCodec }) => {
            const w = window as any;
            w.room = new w.LivekitClient.Room({ publishDefaults: { videoCodec } });
            await w.room.connect(url, jwt);
            await w.room.localParticipant.setCameraEnabled(true);
          },
          { url: media.url, jwt: await mediaToken(media, room, videoCodec), videoCodec },
        );
      }
      await holds('both cameras at the server, in their codecs', () => {
        const people = media.rooms.get(room)?.participants;
        const codecOf = (identity: string) => [...(people?.get(identity)?.tracks.values() ?? [])][0];
        return codecOf('vp9')?.mimeType === 'video/VP9' && codecOf('h264')?.mimeType === 'video/H264';
      });
      const egress = new EgressClient(media.httpUrl, media.apiKey, media.apiSecret);
      const filepath = path.join(dir, 'browsers.mp4');
      const started = await egress.startRoomCompositeEgress(
        room,
        { file: new EncodedFileOutput({ filepath }) },
        { layout: 'grid', encodingOptions: new EncodingOptions({ width: 640, height: 360, framerate: 15 }) },
      );
      // As an integrator does: recording from when the egress says it is (its encoder's start takes
      // seconds on a busy machine).
      await until(async () => {
        const [info] = await egress.listEgress({ egressId: started.egressId });
        return info?.status === EgressStatus.EGRESS_ACTIVE ? true : undefined;
      }, 'the recording to be active');
      await new Promise((r) => setTimeout(r, 6000));
      await egress.stopEgress(started.egressId);
      const ended = await until(async () => {
        const [info] = await egress.listEgress({ egressId: started.egressId });
        return info && info.status >= EgressStatus.EGRESS_COMPLETE ? info : undefined;
      }, 'the recording to end');
      expect(ended.status, ended.error).toBe(EgressStatus.EGRESS_COMPLETE);
      const file = probe(filepath);
      expect(file.decodes, JSON.stringify(file)).toBe(true);
      // Chromium's fake camera is green on black: both side-by-side tiles show it.
      const [left, right] = colourAt(filepath, file.durationSeconds - 1, [
        [0.15, 0.5],
        [0.65, 0.5],
      ]);
      expect(Math.min(left[1], right[1]), JSON.stringify([left, right])).toBeGreaterThan(60);
    } finally {
      await browser.close();
      await served.close();
    }
  });
});
