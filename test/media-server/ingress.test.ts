/**
 * Ingress on the development media server, driven through livekit-server-sdk's IngressClient: a
 * browser publishes over WHIP, ffmpeg pushes a test pattern over RTMP, and a LiveKit client in
 * the room (rtc-node) receives the ingress participant's video frames; ingress_started and
 * ingress_ended webhooks go out.
 */
import { ffmpegBin } from '../support/media-probe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import type { Browser } from '@playwright/test';
import { IngressClient, IngressInput } from 'livekit-server-sdk';
import { dispose, Room, RoomEvent, TrackKind, VideoStream, type RemoteTrack } from '@livekit/rtc-node';
import { startDevMediaServer, type DevMediaServer } from '@/media-server';
import { launchChromiumWithFakeDevices, serveLiveKitClientPage } from '../support/livekit-page';
import { mediaToken } from '../support/rtc-node-media';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver';
import { publishOverWhip } from '../support/whip-publish';

let media: DevMediaServer;
let ingress: IngressClient;
let browser: Browser;
let pages: Awaited<ReturnType<typeof serveLiveKitClientPage>>;
let receiver: WebhookReceiver;
const viewers: Room[] = [];

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  media = await startDevMediaServer({ webhookUrls: [receiver.url] });
  ingress = new IngressClient(media.httpUrl, media.apiKey, media.apiSecret);
  pages = await serveLiveKitClientPage();
  browser = await launchChromiumWithFakeDevices();
}, 60_000);

afterAll(async () => {
  for (const viewer of viewers) await viewer.disconnect();
  await browser?.close();
  await pages?.close();
  await media?.close();
  await receiver?.close();
  await dispose();
});

/** A LiveKit client in the room counting the video frames it decodes from `identity`. */
async function viewer(roomName: string, identity: string) {
  const room = new Room();
  viewers.push(room);
  const seen = { frames: 0, width: 0, height: 0 };
  room.on(RoomEvent.TrackSubscribed, (track: RemoteTrack, _publication, participant) => {
    if (track.kind !== TrackKind.KIND_VIDEO || participant.identity !== identity) return;
    void (async () => {
      const reader = new VideoStream(track).getReader();
      for (let read = await reader.read(); !read.done; read = await reader.read()) {
        seen.frames++;
        seen.width = read.value.frame.width;
        seen.height = read.value.frame.height;
      }
    })();
  });
  await room.connect(media.url, await mediaToken(media, roomName, `viewer-${identity}`), {
    autoSubscribe: true,
    dynacast: false,
  });
  return { room, seen };
}

const eventsOf = (ingressId: string) =>
  receiver.received
    .map((delivery): { event: string; ingressInfo?: { ingressId: string } } => JSON.parse(delivery.body))
    .filter((w) => w.ingressInfo?.ingressId === ingressId)
    .map((w) => w.event);

describe('WHIP ingress', () => {
  it('a browser publishing over WHIP appears as the ingress participant; the room receives its video; DELETE ends it', async () => {
    const info = await ingress.createIngress(IngressInput.WHIP_INPUT, {
      name: 'whip in',
      roomName: 'whip-room',
      participantIdentity: 'whip-cam',
      participantName: 'WHIP camera',
    });
    expect(info.url).toBe(`${media.httpUrl}/w`);
    const { room, seen } = await viewer('whip-room', 'whip-cam');

    const page = await browser.newPage();
    await page.goto(pages.url);
    const publish = (key: string) => publishOverWhip(page, { url: info.url, key });
    expect((await publish('not-the-key')).status).toBe(401);
    const answered = await publish(info.streamKey);
    expect(answered.status).toBe(201);
    // The session is named by a random id: the stream key never travels in a Location.
    expect(answered.location).toMatch(/^\/w\/sessions\/[0-9a-f]{32}$/);

    await expect.poll(() => seen.frames, { timeout: 15_000 }).toBeGreaterThan(10);
    expect(seen.width).toBeGreaterThan(0);
    expect(room.remoteParticipants.get('whip-cam')?.name).toBe('WHIP camera');
    await expect.poll(() => eventsOf(info.ingressId), { timeout: 10_000 }).toEqual(['ingress_started']);

    const ended = await fetch(`${media.httpUrl}${answered.location}`, { method: 'DELETE' });
    expect(ended.status).toBe(200);
    await expect.poll(() => room.remoteParticipants.has('whip-cam'), { timeout: 5000 }).toBe(false);
    await expect
      .poll(() => eventsOf(info.ingressId), { timeout: 10_000 })
      .toEqual(['ingress_started', 'ingress_ended']);
    await page.close();
  }, 60_000);
});

describe('RTMP ingress', () => {
  it("ffmpeg pushing a test pattern to the ingress URL is transcoded and received in the room; the push's end ends it", async () => {
    const info = await ingress.createIngress(IngressInput.RTMP_INPUT, {
      name: 'rtmp in',
      roomName: 'rtmp-room',
      participantIdentity: 'rtmp-cam',
      participantName: 'RTMP camera',
    });
    expect(info.url).toMatch(/^rtmp:\/\/127\.0\.0\.1:\d+\/live$/);
    const { room, seen } = await viewer('rtmp-room', 'rtmp-cam');

    const pushTo = (key: string, seconds: number) =>
      spawn(
        ffmpegBin,
        [
          ...['-hide_banner', '-loglevel', 'error', '-re'],
          ...['-f', 'lavfi', '-i', 'testsrc=size=320x240:rate=15', '-f', 'lavfi', '-i', 'sine=frequency=440'],
          ...['-c:v', 'libx264', '-preset', 'ultrafast', '-tune', 'zerolatency', '-g', '15', '-c:a', 'aac'],
          ...['-t', String(seconds), '-f', 'flv', `${info.url}/${key}`],
        ],
        { stdio: 'ignore' },
      );
    // A push with another key is cut off before anything reaches the room.
    const wrong = pushTo('not-the-key', 5);
    const wrongExit = await new Promise<number | null>((r) => wrong.on('exit', r));
    expect(wrongExit).not.toBe(0);
    expect(media.rooms.get('rtmp-room')?.participants.has('rtmp-cam') ?? false).toBe(false);
    expect(eventsOf(info.ingressId)).toEqual([]);

    // The listener is back for the right key (a push that finds it still restarting is refused at once: retried).
    let push = pushTo(info.streamKey, 30);
    for (let attempt = 0; attempt < 20; attempt++) {
      const exited = await new Promise<boolean>((r) => {
        push.once('exit', () => r(true));
        setTimeout(() => r(false), 1000);
      });
      if (!exited) break;
      await new Promise((r) => setTimeout(r, 250));
      push = pushTo(info.streamKey, 30);
    }
    try {
      await expect.poll(() => seen.frames, { timeout: 20_000 }).toBeGreaterThan(10);
      expect(seen).toMatchObject({ width: 320, height: 240 });
      expect(room.remoteParticipants.get('rtmp-cam')?.name).toBe('RTMP camera');
      await expect.poll(() => eventsOf(info.ingressId), { timeout: 10_000 }).toEqual(['ingress_started']);
    } finally {
      push.kill('SIGKILL');
    }
    await expect.poll(() => room.remoteParticipants.has('rtmp-cam'), { timeout: 10_000 }).toBe(false);
    await expect
      .poll(() => eventsOf(info.ingressId), { timeout: 10_000 })
      .toEqual(['ingress_started', 'ingress_ended']);
    await ingress.deleteIngress(info.ingressId);
  }, 60_000);
});
