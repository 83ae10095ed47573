/**
 * Tracks leave the room as on LiveKit: when their publisher unpublishes them (the SDK stops
 * sending in the section and offers again), and when the server takes away the grant that
 * allowed them (UpdateParticipant): the track is unpublished for everyone, its publisher is
 * told, and a new publish the grant does not allow is refused. Proven with LiveKit's own clients:
 * @livekit/rtc-node (v0: two peer connections) and livekit-client in Chromium (v1: one).
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Browser } from '@playwright/test';
import {
  AudioSource,
  AudioStream,
  LocalAudioTrack,
  Room,
  RoomEvent,
  TrackKind,
  TrackPublishOptions,
  TrackSource,
  type RemoteParticipant,
  type RemoteTrack,
  type RemoteTrackPublication,
} from '@livekit/rtc-node';
import { RoomServiceClient } from 'livekit-server-sdk';
import { TrackSource as ProtoSource } from '@livekit/protocol';
import { startDevMediaServer, type DevMediaServer } from '@/media-server';
import { launchChromiumWithFakeDevices, serveLiveKitClientPage } from '../support/livekit-page';
import { cleanUpWithin, holds, until } from '../support/until';
import { mediaToken, micAndCameraPublisher } from '../support/rtc-node-media';

let media: DevMediaServer;
let api: RoomServiceClient;
const serverLog: string[] = [];
const stopAll: (() => Promise<unknown>)[] = [];

beforeAll(async () => {
  media = await startDevMediaServer({ departureTimeoutMs: 1000, log: (msg) => serverLog.push(msg) });
  api = new RoomServiceClient(media.httpUrl, media.apiKey, media.apiSecret);
});

afterAll(async () => {
  await Promise.all(stopAll.map((stop) => cleanUpWithin('an rtc-node participant leaving', stop)));
  await media?.close();
});

const token = (room: string, identity: string) => mediaToken(media, room, identity);

/** An rtc-node participant that subscribes to everything and counts the audio energy it receives. */
async function listener(room: string, identity: string) {
  const lk = new Room();
  const unpublished: string[] = [];
  let energy = 0;
  lk.on(RoomEvent.TrackSubscribed, (track: RemoteTrack) => {
    if (track.kind !== TrackKind.KIND_AUDIO) return;
    void (async () => {
      const reader = new AudioStream(track, 48000, 1).getReader();
      for (let next = await reader.read(); !next.done; next = await reader.read())
        for (const v of next.value.data) energy += Math.abs(v);
    })();
  });
  lk.on(RoomEvent.TrackUnpublished, (pub: RemoteTrackPublication, from: RemoteParticipant) =>
    unpublished.push(`${from.identity}:${TrackSource[pub.source!]}`),
  );
  await lk.connect(media.url, await token(room, identity), { autoSubscribe: true, dynacast: false });
  stopAll.push(() => lk.disconnect());
  return {
    room: lk,
    unpublished,
    energy: () => energy,
    tracksOf: (who: string) => [...(lk.remoteParticipants.get(who)?.trackPublications.values() ?? [])],
  };
}

/** An rtc-node participant publishing a microphone (a sine) and a camera (grey frames), left at the end. */
async function publisher(room: string, identity: string) {
  const published = await micAndCameraPublisher({ url: media.url, token: await token(room, identity) });
  stopAll.push(published.leave);
  return { ...published, stop: published.leave };
}

const publishedOnServer = async (room: string, identity: string) =>
  (await api.listParticipants(room)).find((p) => p.identity === identity)?.tracks.map((t) => ProtoSource[t.source]);

it('a track its publisher unpublishes leaves the room; the other one goes on', async () => {
  const room = 'client-unpublish';
  const bob = await listener(room, 'bob');
  const alice = await publisher(room, 'alice');
  await holds('bob subscribed to both tracks', () => bob.tracksOf('alice').filter((t) => t.subscribed).length === 2);
  await holds('bob hears alice', () => bob.energy() > 0);

  await alice.room.localParticipant!.unpublishTrack(alice.camera.sid!);
  await holds('bob saw the camera unpublished', () => bob.unpublished.includes('alice:SOURCE_CAMERA'));
  expect(bob.tracksOf('alice').map((t) => TrackSource[t.source!])).toEqual(['SOURCE_MICROPHONE']);
  expect(await publishedOnServer(room, 'alice')).toEqual(['MICROPHONE']);
  const heard = bob.energy();
  await holds('bob still hears alice', () => bob.energy() > heard * 2);
  expect(bob.unpublished).toEqual(['alice:SOURCE_CAMERA']);
});

it('revoking canPublish unpublishes what was published and refuses a new publish', async () => {
  const room = 'revoke-publish';
  const bob = await listener(room, 'bob');
  const alice = await publisher(room, 'alice');
  await holds('bob subscribed to both tracks', () => bob.tracksOf('alice').filter((t) => t.subscribed).length === 2);
  await holds('bob hears alice', () => bob.energy() > 0);

  // Only the camera is taken away first: a grant narrowed to sources.
  await api.updateParticipant(room, 'alice', undefined, {
    canPublish: true,
    canSubscribe: true,
    canPublishData: true,
    canPublishSources: [ProtoSource.MICROPHONE],
  });
  // The server tells alice too (TrackUnpublishedResponse); the Rust SDK does not act on it, livekit-client does (below).
  await holds('bob saw the camera go', () => bob.unpublished.includes('alice:SOURCE_CAMERA'));
  expect(await publishedOnServer(room, 'alice')).toEqual(['MICROPHONE']);
  const before = bob.energy();
  await holds('bob still hears alice', () => bob.energy() > before * 2);

  await api.updateParticipant(room, 'alice', undefined, {
    canPublish: false,
    canSubscribe: true,
    canPublishData: true,
  });
  await holds('bob saw the microphone go', () => bob.unpublished.includes('alice:SOURCE_MICROPHONE'));
  expect(await publishedOnServer(room, 'alice')).toEqual([]);
  // What was in flight settles; then nothing more arrives.
  for (let settled = false, tries = 0; !settled; tries++) {
    expect(tries, 'bob still receives alice 10 s after the revoke').toBeLessThan(10);
    const was = bob.energy();
    await new Promise((r) => setTimeout(r, 1000));
    settled = bob.energy() === was;
  }

  // A new publish is refused by the server (NOT_ALLOWED), not left hanging.
  const again = alice.room.localParticipant!.publishTrack(
    LocalAudioTrack.createAudioTrack('again', new AudioSource(48000, 1)),
    new TrackPublishOptions({ source: TrackSource.SOURCE_MICROPHONE }),
  );
  await expect(again).rejects.toThrow();
  expect(serverLog).toContainEqual(expect.stringMatching(/^alice@.*addTrack: may not publish MICROPHONE/));
  expect(await publishedOnServer(room, 'alice')).toEqual([]);
});

it('a screen share stopped in the browser (livekit-client, v1) leaves the room; one the grant no longer allows is taken down', {
  timeout: 60_000,
}, async () => {
  const room = 'browser-unpublish';
  const bob = await listener(room, 'bob');
  const served = await serveLiveKitClientPage();
  let browser: Browser | undefined;
  try {
    browser = await launchChromiumWithFakeDevices();
    const page = await browser.newPage();
    await page.goto(served.url);
    await page.evaluate(
      async ({ url, jwt }) => {
        const w = window as any;
        w.room = new w.LivekitClient.Room();
        w.unpublishedHere = [];
        w.room.on('localTrackUnpublished', (pub: any) => w.unpublishedHere.push(pub.source));
        await w.room.connect(url, jwt);
        await w.room.localParticipant.setMicrophoneEnabled(true);
        await w.room.localParticipant.setScreenShareEnabled(true);
      },
      { url: media.url, jwt: await token(room, 'carol') },
    );
    await holds('bob subscribed to the microphone and the screen', () =>
      ['SOURCE_MICROPHONE', 'SOURCE_SCREENSHARE'].every((source) =>
        bob.tracksOf('carol').some((t) => t.subscribed && TrackSource[t.source!] === source),
      ),
    );
    await page.evaluate(() => (window as any).room.localParticipant.setScreenShareEnabled(false));
    await holds('bob saw the screen share go', () => bob.unpublished.includes('carol:SOURCE_SCREENSHARE'));
    expect(await publishedOnServer(room, 'carol')).toEqual(['MICROPHONE']);
    // Sharing again publishes a new track that bob receives.
    await page.evaluate(() => (window as any).room.localParticipant.setScreenShareEnabled(true));
    await holds('bob subscribed to the new screen share', () =>
      bob.tracksOf('carol').some((t) => t.subscribed && TrackSource[t.source!] === 'SOURCE_SCREENSHARE'),
    );
    expect((await publishedOnServer(room, 'carol'))?.sort()).toEqual(['MICROPHONE', 'SCREEN_SHARE']);

    // A host takes screen sharing away: the share leaves the room and carol's page stops it.
    await api.updateParticipant(room, 'carol', undefined, {
      canPublish: true,
      canSubscribe: true,
      canPublishData: true,
      canPublishSources: [ProtoSource.MICROPHONE],
    });
    await until(
      () =>
        page.evaluate(() => {
          const w = window as any;
          return (
            (w.unpublishedHere.includes('screen_share') && !w.room.localParticipant.isScreenShareEnabled) || undefined
          );
        }),
      "carol's page stopped sharing",
      10_000,
    );
    await holds(
      'bob saw the share go again',
      () => bob.unpublished.filter((u) => u === 'carol:SOURCE_SCREENSHARE').length === 2,
    );
    expect(await publishedOnServer(room, 'carol')).toEqual(['MICROPHONE']);
    // Trying again is refused; the microphone is untouched.
    const retried = await page.evaluate(() =>
      (window as any).room.localParticipant.setScreenShareEnabled(true).then(
        () => 'published',
        (err: Error) => `refused: ${err.message}`,
      ),
    );
    expect(retried).toMatch(/^refused/);
    expect(await publishedOnServer(room, 'carol')).toEqual(['MICROPHONE']);
  } finally {
    await browser?.close();
    await served.close();
  }
});
