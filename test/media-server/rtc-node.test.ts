/**
 * The development media server against a second, independent client: @livekit/rtc-node (LiveKit's
 * Rust SDK for Node, as shipped). It sends its token only as `Authorization: Bearer`, negotiates
 * its own RTP header extension ids, and checks what it receives by value: a sine's energy, frames
 * of the sent size, the sender of a data packet, mute, metadata and removal with their reasons; and
 * media both ways between rtc-node and livekit-client in Chromium.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AudioSource,
  AudioStream,
  DisconnectReason,
  LocalAudioTrack,
  LocalVideoTrack,
  Room,
  TrackKind,
  TrackPublishOptions,
  TrackSource,
  VideoSource,
  VideoStream,
  type RemoteParticipant,
  type RemoteTrack,
} from '@livekit/rtc-node';
import { RoomServiceClient } from 'livekit-server-sdk';
import { startDevMediaServer, type DevMediaServer } from '@/media-server';
import { cleanUpWithin, holds } from '../support/until';
import { feedSine, mediaToken } from '../support/rtc-node-media';
import { launchChromiumWithFakeDevices, serveLiveKitClientPage } from '../support/livekit-page';

const ROOM = 'rtc-node';
const WIDTH = 320;
const HEIGHT = 240;

let media: DevMediaServer;

const token = (identity: string, room = ROOM) =>
  mediaToken(media, room, identity, { name: identity, grant: { canUpdateOwnMetadata: true } });

/** Calls fn with each value the stream yields, until it ends. */
async function each<T>(stream: ReadableStream<T>, fn: (value: T) => void) {
  const reader = stream.getReader();
  for (let next = await reader.read(); !next.done; next = await reader.read()) fn(next.value);
}

/**
 * A connected rtc-node participant publishing a 440 Hz sine until stopped, and a grey 320×240
 * picture once its camera is turned on.
 */
async function participant(identity: string, roomName = ROOM) {
  const room = new Room();
  const received = { audioEnergy: 0, videoSizes: new Set<string>(), data: [] as string[] };
  room.on('trackSubscribed', (track: RemoteTrack) => {
    if (track.kind === TrackKind.KIND_AUDIO)
      void each(new AudioStream(track, 48000, 1), (frame) => {
        for (const sample of frame.data) received.audioEnergy += Math.abs(sample);
      });
    else void each(new VideoStream(track), ({ frame }) => received.videoSizes.add(`${frame.width}x${frame.height}`));
  });
  room.on('dataReceived', (payload: Uint8Array, from?: RemoteParticipant) =>
    received.data.push(`${from?.identity}:${new TextDecoder().decode(payload)}`),
  );
  await room.connect(media.url, await token(identity, roomName), { autoSubscribe: true, dynacast: false });

  const audio = new AudioSource(48000, 1);
  const video = new VideoSource(WIDTH, HEIGHT);
  const microphone = new TrackPublishOptions({ source: TrackSource.SOURCE_MICROPHONE });
  const camera = new TrackPublishOptions({ source: TrackSource.SOURCE_CAMERA });
  await room.localParticipant!.publishTrack(LocalAudioTrack.createAudioTrack('sine', audio), microphone);

  let cameraOn = false;
  const stopFeeding = feedSine(audio, { source: video, width: WIDTH, height: HEIGHT, on: () => cameraOn });
  return {
    room,
    received,
    async turnCameraOn() {
      await room.localParticipant!.publishTrack(LocalVideoTrack.createVideoTrack('grey', video), camera);
      cameraOn = true;
    },
    stop: async () => {
      await stopFeeding();
      await room.disconnect();
    },
  };
}

let ada: Awaited<ReturnType<typeof participant>>;
let bob: Awaited<ReturnType<typeof participant>>;

beforeAll(async () => {
  media = await startDevMediaServer({ departureTimeoutMs: 1000 });
  [ada, bob] = await Promise.all([participant('ada'), participant('bob')]);
});

afterAll(async () => {
  await Promise.all([ada, bob].map((p) => p && cleanUpWithin('an rtc-node participant leaving', p.stop)));
  await media?.close();
});

describe('@livekit/rtc-node against the development media server', () => {
  it('connects with the token in the Authorization header only', async () => {
    expect(ada.room.isConnected && bob.room.isConnected).toBe(true);
    const validate = await fetch(`${media.httpUrl}/rtc/validate`, {
      headers: { authorization: `Bearer ${await token('carl')}` },
    });
    expect(validate.status).toBe(200);
    const badHeader = await fetch(`${media.httpUrl}/rtc/validate?access_token=${await token('carl')}`, {
      headers: { authorization: 'Bearer not-a-token' },
    });
    expect(badHeader.status).toBe(401); // the header wins over the query, as on LiveKit
  });

  it('carries audio both ways with cameras off, then video once the cameras are on, received by value', async () => {
    // Audio alone is the case a forwarder that keeps the publisher's extension ids gets wrong.
    await holds('audio with energy both ways', () => ada.received.audioEnergy > 0 && bob.received.audioEnergy > 0);
    await Promise.all([ada.turnCameraOn(), bob.turnCameraOn()]);
    await holds('video frames both ways', () => ada.received.videoSizes.size > 0 && bob.received.videoSizes.size > 0);
    expect([...ada.received.videoSizes]).toEqual([`${WIDTH}x${HEIGHT}`]);
    expect([...bob.received.videoSizes]).toEqual([`${WIDTH}x${HEIGHT}`]);
  });

  it('relays data with the sender identity', async () => {
    await ada.room.localParticipant!.publishData(new TextEncoder().encode('hello'), { reliable: true });
    await holds('the data packet at bob', () => bob.received.data.includes('ada:hello'));
  });

  it('shows a mute from the server API and a metadata update to the other participant', async () => {
    const adaSeenByBob = () => bob.room.remoteParticipants.get('ada')!;
    const microphone = [...adaSeenByBob().trackPublications.values()].find(
      (p) => p.source === TrackSource.SOURCE_MICROPHONE,
    )!;
    const api = new RoomServiceClient(media.httpUrl, media.apiKey, media.apiSecret);
    await api.mutePublishedTrack(ROOM, 'ada', microphone.sid!, true);
    await holds('the mute at bob', () => microphone.muted === true);

    await ada.room.localParticipant!.updateMetadata('{"hand":"raised"}');
    await holds('the metadata at bob', () => adaSeenByBob().metadata === '{"hand":"raised"}');
  });

  it('removes a participant through the server API, who learns why', async () => {
    const reasons: DisconnectReason[] = [];
    bob.room.on('disconnected', (reason: DisconnectReason) => reasons.push(reason));
    await new RoomServiceClient(media.httpUrl, media.apiKey, media.apiSecret).removeParticipant(ROOM, 'bob');
    await holds('the disconnect at bob', () => reasons.length > 0);
    expect(reasons).toEqual([DisconnectReason.PARTICIPANT_REMOVED]);
    await holds('bob gone at ada', () => !ada.room.remoteParticipants.has('bob'));
  });

  it('carries audio and video between rtc-node and livekit-client in Chromium, both ways', async () => {
    const served = await serveLiveKitClientPage();
    const browser = await launchChromiumWithFakeDevices();
    const cara = await participant('cara', 'rtc-node-browser');
    try {
      await cara.turnCameraOn();
      const page = await browser.newPage();
      await page.goto(served.url);
      await page.evaluate(
        async ({ url, jwt }) => {
          const w = window as any;
          const room = new w.LivekitClient.Room();
          w.frames = 0;
          w.peak = 0;
          room.on('trackSubscribed', (track: any) => {
            const el = track.attach(); // Chromium feeds WebAudio only from a remote track an element plays
            document.body.appendChild(el);
            if (track.kind === 'video') return;
            const ctx = new AudioContext();
            const analyser = ctx.createAnalyser();
            ctx.createMediaStreamSource(new MediaStream([track.mediaStreamTrack])).connect(analyser);
            const samples = new Float32Array(2048);
            setInterval(() => {
              analyser.getFloatTimeDomainData(samples);
              for (const v of samples) w.peak = Math.max(w.peak, Math.abs(v));
            }, 50);
          });
          await room.connect(url, jwt);
          await room.localParticipant.enableCameraAndMicrophone();
        },
        { url: media.url, jwt: await token('browser', 'rtc-node-browser') },
      );
      await holds('the browser hears the sine', async () => (await page.evaluate(() => (window as any).peak)) > 0.01);
      await holds('the browser decodes the grey picture', () =>
        page.evaluate(() =>
          [...document.querySelectorAll('video')].some((v) => v.getVideoPlaybackQuality().totalVideoFrames > 5),
        ),
      );
      await holds(
        'cara hears and sees the browser',
        () => cara.received.audioEnergy > 0 && cara.received.videoSizes.size > 0,
      );
    } finally {
      await cara.stop();
      await browser.close();
      await served.close();
    }
  });
});
